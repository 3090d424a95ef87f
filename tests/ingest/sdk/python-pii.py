# Personal data from Debian's python3-sentry-sdk (1.9.10) with send_default_pii, unmodified:
# `python3 python-pii.py <dsn> <marker>`. A WSGI application behind the SDK's own SentryWsgiMiddleware fails while
# serving a request with an Authorization header and a session cookie; the failing function holds a password and a
# secret token in local variables (the SDK sends frame locals by default). Every secret is `<marker>-<name>`;
# `<marker>-control` (a local variable that is not secret) must be stored.
import sys
from wsgiref.util import setup_testing_defaults

import sentry_sdk
from sentry_sdk.integrations.wsgi import SentryWsgiMiddleware

dsn, marker = sys.argv[1], sys.argv[2]
sentry_sdk.init(dsn, release="pii-py@1.0", environment="py-test", send_default_pii=True)


def charge(amount):
    password = marker + "-localpassword"
    secret_token = marker + "-localsecret"
    note = marker + "-control"
    raise ValueError("charge of %d failed" % amount)


def app(environ, start_response):
    charge(42)


environ = {}
setup_testing_defaults(environ)
environ["HTTP_AUTHORIZATION"] = "Basic " + marker + "-basic"
environ["HTTP_COOKIE"] = "csrftoken=" + marker + "-csrf; sessionid=" + marker + "-pycookie"
environ["QUERY_STRING"] = "q=shoes"
try:
    SentryWsgiMiddleware(app)(environ, lambda status, headers: None)
except ValueError:
    pass
sentry_sdk.flush(5)
