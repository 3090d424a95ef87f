import assert from "node:assert/strict";
import { ProtocolError } from "../../src/protocol/errors";

/** "ok", or the reason of the ProtocolError the call throws (any other error fails the test). */
export function protocolReason(fn: () => unknown): string {
  try {
    fn();
    return "ok";
  } catch (err) {
    assert.ok(err instanceof ProtocolError, String(err));
    return err.reason;
  }
}
