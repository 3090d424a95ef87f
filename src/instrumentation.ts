// Next.js calls register() once when the server starts: Faultline's own server errors are reported from here on
// (web/self-monitoring/server.ts). Not during `next build`, which has no database or intake to report to. The
// import sits inside the NEXT_RUNTIME test so that the edge build (which Next also makes of this file) leaves it out.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    if (process.env.NEXT_PHASE === "phase-production-build") return;
    const { startServerMonitoring } = await import("./web/self-monitoring/server");
    startServerMonitoring();
  }
}
