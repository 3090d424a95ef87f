# Sends with Debian's python3-sentry-sdk (1.9), unmodified: `/usr/bin/python3 python-sdk.py <dsn> <message> [error|transaction]`.
# "error": raises and captures an exception in a function with a local variable (1.9 posts it gzipped to /store/).
# "transaction": a transaction with one child span (posted as an envelope to /envelope/).
# Prints {"eventId", "requests": [{"url", "status", "body"}]} on stdout: every request the SDK's own transport made, as
# observed by wrapping its connection pool (the SDK's behaviour is not changed).
import json
import sys
import time

try:
    import sentry_sdk
except ImportError as e:
    sys.stderr.write("python-sdk.py: %s lacks sentry_sdk (%s); install Debian's python3-sentry-sdk\n" % (sys.executable, e))
    sys.exit(3)

dsn, message = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "error"
sentry_sdk.init(dsn, release="e2e@1.0.0", environment="e2e", traces_sample_rate=1.0 if mode == "transaction" else 0.0)

requests = []
transport = sentry_sdk.Hub.current.client.transport
pool_request = transport._pool.request


def observed_request(method, url, *args, **kwargs):
    response = pool_request(method, url, *args, **kwargs)
    requests.append({"url": url, "status": response.status, "body": response.data.decode("utf-8", "replace")})
    return response


transport._pool.request = observed_request


def checkout(cart_total):
    discount_code = "E2E-LOCAL"  # a local variable, for the stack frame's vars
    raise ValueError("%s (total %d, code %s)" % (message, cart_total, discount_code))


if mode == "error":
    try:
        checkout(42)
    except ValueError:
        event_id = sentry_sdk.capture_exception()
else:
    transaction = sentry_sdk.start_transaction(op="task", name=message)
    span = transaction.start_child(op="db.query", description="SELECT 1")
    time.sleep(0.01)
    span.finish()
    event_id = transaction.finish()

sentry_sdk.flush(timeout=5)
print(json.dumps({"eventId": event_id, "requests": requests}))
