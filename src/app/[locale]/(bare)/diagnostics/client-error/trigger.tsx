"use client";
// Throws during render after a click, with no boundary in between: the framework's client-side fallback shows.
import { useState } from "react";

export function ClientErrorTrigger({ label }: { label: string }) {
  const [fail, setFail] = useState(false);
  if (fail) throw new Error("Faultline diagnostics: deliberate client-side error");
  return (
    <button type="button" className="button danger" onClick={() => setFail(true)} data-testid="throw-client-error">
      {label}
    </button>
  );
}
