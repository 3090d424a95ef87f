// Built-in stack trace rules of Sentry's enhancement base `newstyle:2023-01-11`, second half:
// category propagation, grouping flags and the SDK specific rules (getsentry/sentry
// src/sentry/grouping/enhancer/enhancement-configs/newstyle@2023-01-11.txt from
// "pthread_mutex_lock" to the end; its comments are left out).
export const SDK_RULES = String.raw`
family:native function:pthread_mutex_lock category=lock
category:driver | [ category:driver ] category=internals
[ category:gl ] | category:gl category=internals
[ category:av ] | category:av  category=internals
[ category:malloc ] | category:malloc category=internals
category:throw ^-group
[ function:_purecall ] | category:throw category=internals
[ category:throw ] | category:throw category=internals
category:system -app
category:threadbase -group v-group
category:handler ^-group -group
category:telemetry -group
category:indirection -group
category:internals -group
category:threadbase v-group -group
family:native category:system function:_* !function:_purecall category=internals
family:native category:system function:"<unknown>" category=internals
family:native function:_INTERNAL* category=internals
family:native function:closure category=internals
family:native function:Collection.map<T> category=internals
family:native function:Array.subscript.getter category=internals
family:native function:Array._getElement category=internals
family:native function:_ArrayBuffer._nativeTypeChecked.getter category=internals
family:native function:range category=internals
family:native function:@callee_guaranteed category=internals
family:native function:*.cold.1 category=indirection
[ !category:system ] | category:system | [ !category:system ] category=indirection
[ category:free ]       | category:system  category=internals
[ category:system ]     | category:system  category=internals
[ category:std ]        | category:system  category=internals
[ category:std ]        | category:std     category=internals
[ category:ui ]         | category:ui      category=internals
[ category:ui ]         | category:system  category=internals
[ category:internals ]  | category:system  category=internals
[ category:internals ]  | category:ui      category=internals
[ category:load ]       | category:system  category=internals
[ category:load ]       | category:load    category=internals
[ category:throw ]      | category:system  category=internals
[ category:runtime ]    | category:system  category=internals
[ category:runtime ]    | category:runtime category=internals
[ category:dtor ]       | category:dtor    category=internals
path:**/vendor/**        -app
path:**/site-packages/** -app
path:**/dist-packages/** -app
path:**/node_modules/** -app
module:unpkg/** -app
path:**https://unpkg.com/** -app
path:**https://cdnjs.cloudflare.com/** -app
path:**https://cdn.jsdelivr.net/** -app
path:**https://esm.run/** -app
family:javascript function:reportError ^-app -app
module:@babel/** -app -group
module:core-js/** -app -group
module:regenerator-runtime/** -app -group
module:tslib/** -app -group
family:javascript function:_callSuper -app -group
function:runMicrotasks -app -group
function:queueMicrotask -app -group
function:processTicksAndRejections -app -group
function:runNextTicks -app -group
function:nextTick -app -group
path:**/go/pkg/mod/** -app
module:akka.* category=framework
module:com.fasterxml.* category=framework
module:com.microsoft.* category=framework
module:com.sun.* category=framework
module:feign.* category=framework
module:io.opentelemetry.* category=framework
module:io.sentry.* category=framework -group
module:jdk.* category=framework
module:oauth.* category=framework
module:org.apache.* category=framework
module:org.glassfish.* category=framework
module:org.jboss.* category=framework
module:org.jdesktop.* category=framework
module:org.postgresql.* category=framework
module:org.springframework.* category=framework
module:org.web3j.* category=framework
module:reactor.core.* category=framework
module:scala.* category=framework
module:sun.* category=framework
category:framework -app
module:kotlin.* -app
module:kotlinx.* -app
module:io.ktor.* -app
module:io.netty.* -app
module:newrelic -app -group
path:**/*newrelic*/** -app -group
path:**/*LogRocket*/** -app -group
`;
