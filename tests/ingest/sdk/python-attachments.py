# Attachments from Debian's python3-sentry-sdk (1.9.10), unmodified: `python3 python-attachments.py <dsn> <marker>`.
# Adds a text file and bytes to the scope (scope.add_attachment), captures an error and prints its event id.
import sys

import sentry_sdk

dsn, marker = sys.argv[1], sys.argv[2]
sentry_sdk.init(dsn, release="attachments-py@1.0")

with sentry_sdk.configure_scope() as scope:
    scope.add_attachment(bytes=(marker + " report.csv\nname,amount\nann,3\n").encode(), filename="report.csv", content_type="text/csv")
    scope.add_attachment(bytes=bytes(range(256)) * 4, filename="blob.bin")

try:
    raise RuntimeError(marker + " export failed")
except RuntimeError:
    event_id = sentry_sdk.capture_exception()

sentry_sdk.flush(5)
print(event_id)
