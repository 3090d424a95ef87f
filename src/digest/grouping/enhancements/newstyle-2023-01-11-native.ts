// Built-in stack trace rules of Sentry's enhancement base `newstyle:2023-01-11`, first half:
// the native/mobile rules (getsentry/sentry src/sentry/grouping/enhancer/enhancement-configs/
// newstyle@2023-01-11.txt, up to "SDK specific rules"; its comments are left out).
export const NATIVE_RULES = String.raw`
family:native package:/var/containers/Bundle/Application/**          +app
family:native package:/private/var/containers/Bundle/Application/**  +app
family:native package:**/Developer/CoreSimulator/Devices/**          +app
family:native package:**/Containers/Bundle/Application/**            +app
family:native package:**.app/Contents/**                             +app
family:native package:/Users/**                                      +app
family:native stack.function:FDebug::CheckVerifyFailedImpl*                v+app -app ^-app
family:native stack.function:UE::Assert::Private::ExecCheckImplInternal*   v+app -app ^-app
family:native stack.function:USentrySubsystem::CaptureMessage*             v+app -app ^-app
family:native stack.function:USentrySubsystem::CaptureMessageWithScope*    v+app -app ^-app
family:native stack.function:USentrySubsystem::CaptureEvent*               v+app -app ^-app
family:native stack.function:USentrySubsystem::CaptureEventWithScope*      v+app -app ^-app
family:native stack.function:USentrySubsystem::*execCapture*               v+app -app ^-app
family:native package:/lib/**                                        -app
family:native package:/usr/lib/**                                    -app
family:native path:/usr/local/lib/**                                 -app
family:native path:/usr/local/Cellar/**                              -app
family:native package:linux-gate.so*                                 -app
family:native function:std::*                                     -app
family:native function:core::*                                    -app
family:native function:alloc::*                                   -app
family:native function:__rust_*                                   -app
family:native function:rust_begin_unwind                          -app
family:native function:std::panicking::begin_panic                ^-group -group ^-app -app
family:native function:core::panicking::begin_panic               ^-group -group ^-app -app
family:native function:failure::backtrace::Backtrace::new         ^-group -group ^-app -app
family:native function:error_chain::make_backtrace                ^-group -group ^-app -app
family:native function:std::panicking::panic_fmt                  ^-app -app
family:native function:core::panicking::panic_fmt                 ^-app -app
family:native function:_CxxThrowException                         ^-group -group ^-app -app
family:native function:__cxa_throw                                ^-group -group ^-app -app
family:native function:__assert_rtn                               ^-group -group ^-app -app
family:native function:_NSRaiseError                              ^-group -group ^-app -app
family:native function:_mh_execute_header                         -group -app
family:native function:google_breakpad::*                         -app -group
family:native function:google_breakpad::ExceptionHandler::SignalHandler ^-group -group
family:native function:google_breakpad::ExceptionHandler::WriteMinidumpWithException ^-group -group
family:native package:**/Frameworks/libswift*.dylib                  -app
family:native package:**/Frameworks/KSCrash.framework/**             -app
family:native package:**/Frameworks/SentrySwift.framework/**         -app
family:native package:**/Frameworks/Sentry.framework/**              -app
family:native function:kscm_*                                     -app -group
family:native function:sentrycrashcm_*                            -app -group
family:native function:kscrash_*                                  -app -group
family:native function:*sentrycrash_*                             -app -group
family:native function:"?[[]KSCrash*"                             -app -group
family:native function:"?[[]RNSentry*"                            -app -group
family:native function:"__*[[]Sentry*"                            -app -group
family:native function:"?[[]Sentry*"                              -app -group
family:native stack.package:/data/app/** stack.abs_path:**.dart +app
family:javascript stack.abs_path:org-dartlang-sdk:///** -app -group
family:javascript module:**/packages/flutter/** -app
family:native stack.abs_path:**/packages/flutter/** -app
stack.abs_path:package:sentry/** -app -group
stack.abs_path:package:sentry_flutter/** -app -group
stack.abs_path:package:sentry_logging/** -app -group
stack.abs_path:package:sentry_dio/** -app -group
stack.abs_path:package:sentry_file/** -app -group
stack.abs_path:package:sentry_hive/** -app -group
stack.abs_path:package:sentry_isar/** -app -group
stack.abs_path:package:sentry_sqflite/** -app -group
stack.abs_path:package:sentry_drift/** -app -group
stack.abs_path:package:sentry_isar/** -app
stack.abs_path:package:sentry_link/** -app
stack.abs_path:package:sentry_firebase_remote_config/** -app
family:native stack.abs_path:**/.pub-cache/** -app
family:native package:"/System/Library/Frameworks/**" category=system
family:native package:"C:/Windows/**" category=system
family:native package:/usr/lib/** category=system
family:native function:memset category=system
family:native function:memcpy category=system
family:native function:__memcpy category=system
family:native function:memcmp category=system
family:native package:CoreFoundation category=system
family:native package:Foundation category=system
family:native package:CFNetwork category=system
family:native package:IOKit category=system
family:native package:QuartzCore category=system
family:native package:IOMobileFramebuffer category=system
family:native package:libobjc* category=system
family:native package:libsystem* category=system
family:native package:/system/** category=system
family:native package:/vendor/** category=system
module:dalvik.system.* category=system
module:com.android.* category=system
family:native package:libdispatch.dylib category=system
family:native package:WebKit category=system
family:native package:**/libart.so category=system
package:/apex/com.android.*/lib*/** category=system
module:com.lenovo.lsf.* category=system
module:com.lenovo.payplus.* category=system
family:native function:boost::* category=std
family:native function:std::* category=std
module:java.* category=std
module:com.google.crypto.* category=std
module:com.google.android.* category=std
module:javax.crypto.* category=std
module:android.database.* category=std
module:androidx.* category=std
module:android.* category=std
module:android.os.* category=system
family:native package:UIKit category=ui
family:native package:UIKitCore category=ui
family:native package:SwiftUI category=ui
family:native package:AttributeGraph category=ui
family:native package:CoreAutoLayout category=ui
family:native package:GraphicsServices category=ui
family:native function:"-\[NSISEngine*" category=ui
module:android.view.* category=ui
module:android.text.* category=ui
module:android.widget.* category=ui
module:android.app.Dialog category=ui
module:androidx.*.widget.* category=ui
module:com.google.android.material.* category=ui
category:ui function:handleMessage category=indirection
category:ui function:run category=indirection
family:native function:art::jit::* category=runtime
family:native package:/system/lib/libmedia.so category=av
family:native package:/System/lib/libaudioclient.so category=av
family:native package:AudioToolbox* category=av
family:native package:libAudioToolboxUtility.dylib category=av
family:native function:std::_* category=internals
family:native function:__swift_* category=internals
family:native function:block_destroy_helper* category=internals
family:native function:*_block_invoke* app:no category=internals
family:native package:/usr/lib/system/** function:start category=threadbase
family:native package:libdyld.dylib function:start category=threadbase
family:native package:UIKitCore function:UIApplicationMain category=threadbase
family:native function:wWinMain category=threadbase
family:native function:invoke_main category=threadbase
family:native function:BaseThreadInitThunk category=threadbase
family:native function:RtlUserThreadStart category=threadbase
family:native function:thread_start category=threadbase
family:native function:_pthread_start category=threadbase
family:native function:__pthread_start category=threadbase
family:native function:_pthread_body category=threadbase
family:native function:_dispatch_worker_thread2 category=threadbase
family:native function:start_wqthread category=threadbase
family:native function:_pthread_wqthread category=threadbase
family:native function:boost::*::thread_proxy category=threadbase
family:native package:/usr/lib/system/libsystem_pthread.dylib function:"<unknown>" category=threadbase
module:android.os.AsyncTask* function:call category=threadbase
family:native package:UIKit function:UIApplicationMain category=threadbase
module:java.util.concurrent.ThreadPoolExecutor* function:runWorker category=threadbase
module:android.os.* function:call category=threadbase
module:android.app.ActivityThread function:main category=threadbase
module:android.view.View function:layout category=threadbase
module:android.os.Looper function:loop category=threadbase
family:native function:TppWorkerThread category=threadbase
family:native function:TppWorkpExecuteCallback category=threadbase
family:native function:RtlpTpWorkCallback category=threadbase
module:android.os.Handler function:dispatchMessage category=threadbase
module:android.os.Handler function:handleCallback category=threadbase
module:android.app.ActivityThread* function:handleMessage category=threadbase
family:native package:"**/libsystem_malloc.dylib" category=malloc
family:native function:malloc category=malloc
family:native function:malloc_base category=malloc
family:native function:RtlpAllocateHeapInternal category=malloc
family:native function:std::*::allocator_traits* category=malloc
family:native function:*::operator()* category=indirection
family:native function:*<lambda>* category=indirection
family:native function:destructor' category=indirection
family:native function:__dynamic_cast category=indirection
family:native function:boost::function* category=indirection
family:native function:boost::_bi::* category=indirection
family:native function:boost::detail::function::functor_manager* category=indirection
family:native function:Array.subscript.* category=indirection
module:java.lang.reflect.* category=indirection
module:java.lang.Class function:getMethod category=indirection
module:androidx.work.impl.utils.ForceStopRunnable category=indirection
family:native function:"*::\\{dtor\\}" category=dtor
family:native function:"destructor'" category=dtor
family:native function:exit category=shutdown
family:native function:RtlExitUserProcess category=shutdown
family:native function:ExitProcessImplementation category=shutdown
family:native function:RtlExitUserThread category=shutdown
family:native function:RtlpExecuteHandlerForException category=handler
family:native function:_sigtramp category=handler
family:native function:DispatchHookW category=handler
family:native function:execute_onexit_table category=handler
family:native function:abort category=throw
family:native function:raise category=throw
family:native function:std::terminate category=throw
family:native function:RtlExitUserThread category=throw
family:native function:TppRaiseInvalidParameter category=throw
family:native function:_CxxThrowException category=throw
family:native function:RaiseException category=throw
family:native function:RaiseComPlusException category=throw
family:native function:_CFThrowFormattedException category=throw
family:native function:objc_exception_throw category=throw
family:native function:AG::precondition_failure* category=throw
family:native package:"C:/WINDOWS/system32/DriverStore/**" category=driver
family:native package:"/System/Library/Extensions/AppleIntel*GraphicsGLDriver.bundle/**" category=driver
family:native function:*CUDA* category=driver
family:native package:**/nvcuda.dll category=driver
family:native package:"C:/Program Files/NVIDIA Corporation/**" category=driver
family:native package:/System/Library/Extensions/GeForceGLDriver.bundle/** category=driver
family:native package:/System/Library/Extensions/AMDRadeon*/** category=driver
family:native package:/System/Library/PrivateFrameworks/GPUSupport.framework/** category=driver
family:native package:libGPUSupportMercury.dylib category=driver
family:native package:AGXGLDriver category=driver
family:native function:RtlFreeHeap category=free
family:native function:RtlFreeUnicodeString category=free
family:native function:std::_Deallocate category=free
family:native function:free category=free
family:native function:objc_release category=free
family:native function:_swift_release_dealloc category=free
family:native function:_CFRelease category=free
family:native package:C:/Windows/SYSTEM32/OPENGL32.dll category=gl
family:native package:/System/Library/Frameworks/OpenGL.framework/** category=gl
family:native package:OpenGLES category=gl
family:native package:GLEngine category=gl
family:native package:/system/lib/libEGL.so category=gl
family:native package:**/libGLES*.so category=gl
family:native package:**/libESXGLES*.so category=gl
family:native package:/system/lib/libskia.so category=gl
family:native package:/System/Library/Frameworks/OpenCL.framework/** category=gl
family:native package:"/System/Library/PrivateFrameworks/GPUSupport.framework/**" function:gpusGenerateCrashLog* category=telemetry
family:native function:gpusKillClientExt category=telemetry
family:native function:crashpad::* category=telemetry
module:cn.gundam.sdk.* category=telemetry
module:com.lenovo.payplus.analytics.* category=telemetry
package:"**/libBugly.so" category=telemetry
family:native function:dlopen category=load
family:native function:dladdr category=load
family:native function:ImageLoaderMachO::findClosestSymbol category=load
family:native package:/system/lib/libnativeloader.so function:android::OpenNativeLibrary category=load
module:java.lang.System function:loadLibrary category=load
module:java.lang.Runtime function:loadLibrary* category=load
`;
