# User feedback from Debian's python3-sentry-sdk (1.9.10), unmodified: `python3 python-feedback.py <dsn> <marker>`.
# Version 1.9 has no capture_user_feedback of its own: as its users do, the script captures an error and sends a
# legacy `user_report` envelope item for that event id through the SDK's own transport (sentry_sdk.envelope). Prints
# the error's event id.
import sys

import sentry_sdk
from sentry_sdk.envelope import Envelope, Item, PayloadRef

dsn, marker = sys.argv[1], sys.argv[2]
sentry_sdk.init(dsn, release="feedback-py@1.0", environment="py-test")

try:
    raise RuntimeError(marker + " report generation failed")
except RuntimeError:
    event_id = sentry_sdk.capture_exception()

envelope = Envelope(headers={"event_id": event_id})
envelope.add_item(Item(payload=PayloadRef(json={"event_id": event_id, "name": "Pat Python", "email": "pat@example.com", "comments": marker + " the PDF is empty"}), type="user_report"))
sentry_sdk.Hub.current.client.transport.capture_envelope(envelope)
sentry_sdk.flush(5)
print(event_id)
