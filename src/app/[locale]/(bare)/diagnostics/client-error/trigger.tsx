"use client";
// Throws during render after a click, with no boundary in between: the framework's client-side fallback shows.
// The second button throws the same error twice in a row from an event loop task, as a flaky handler would:
// self-monitoring reports it once (its Dedupe, runtime-spec §8). Both throw through throwDiagnostic, called from this
// file, so the internal project's issue names it from the build's source map (the caller's name for the call).
import { useState } from "react";

function throwDiagnostic(what: string): never {
  throw new Error(`Faultline diagnostics: ${what}`);
}

function throwRepeated(): never {
  throwDiagnostic("the same client-side error twice in a row");
}

export function ClientErrorTrigger({ label, twiceLabel }: { label: string; twiceLabel: string }) {
  const [fail, setFail] = useState(false);
  if (fail) throwDiagnostic("deliberate client-side error");
  return (
    <>
      <button type="button" className="button danger" onClick={() => setFail(true)} data-testid="throw-client-error">
        {label}
      </button>{" "}
      <button
        type="button"
        className="button danger"
        onClick={() => {
          setTimeout(throwRepeated, 0);
          setTimeout(throwRepeated, 0);
        }}
        data-testid="throw-twice"
      >
        {twiceLabel}
      </button>
    </>
  );
}
