# Release health from Debian's python3-sentry-sdk (1.9.10), unmodified: `python3 python-sessions.py <dsn> <release>`.
# Three request-mode sessions (aggregated; the third captures an exception) and one application-mode session of a
# user, which ends cleanly. The SDK sends them together in one envelope when flushed.
import sys

import sentry_sdk
from sentry_sdk.sessions import auto_session_tracking

dsn, release = sys.argv[1], sys.argv[2]
sentry_sdk.init(dsn, release=release, environment="py-test", auto_session_tracking=True)
hub = sentry_sdk.Hub.current
for fail in [False, False, True]:
    with auto_session_tracking(hub, session_mode="request"):
        if fail:
            sentry_sdk.capture_exception(ValueError("request failed"))
with auto_session_tracking(hub, session_mode="application"):
    sentry_sdk.set_user({"id": "user-7"})
sentry_sdk.flush(5)
