// A live stream (server-sent events) opened with a session cookie over real HTTP and read frame by frame, for the
// specs about the issue stream's and the logs tail's ends (live-stream-limits.spec.ts, sessions.spec.ts).
import { expect } from "@playwright/test";

export type Frame = { event: string; data: string };

/** A live stream opened with a session cookie, read one server-sent frame at a time. */
export class Stream {
  private buffer = "";
  private readonly decoder = new TextDecoder();
  private constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  static async open(url: string, cookie: string): Promise<Stream> {
    const res = await fetch(url, { headers: { cookie } });
    expect(res.status, await (res.status === 200 ? "" : res.text())).toBe(200);
    return new Stream(res.body!.getReader());
  }

  /** The next frame, or null once the server has closed the stream. */
  async next(): Promise<Frame | null> {
    for (;;) {
      const at = this.buffer.indexOf("\n\n");
      if (at >= 0) {
        const raw = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 2);
        if (raw.startsWith("retry:")) continue;
        if (raw.startsWith(": tick")) return { event: "tick", data: "" };
        const event = /^event: (.*)$/m.exec(raw)?.[1] ?? "message";
        return { event, data: /^data: (.*)$/m.exec(raw)?.[1] ?? "" };
      }
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Frames until the stream ends or `ticks` more polls have come (each poll sends one frame). */
  async until(ticks: number): Promise<Frame[]> {
    const frames: Frame[] = [];
    for (let polls = 0; polls <= ticks; ) {
      const frame = await this.next();
      if (!frame) break;
      frames.push(frame);
      if (frame.event === "end") break;
      polls++;
    }
    return frames;
  }

  close(): Promise<void> {
    return this.reader.cancel().catch(() => undefined);
  }
}

/** The `end` frame among `frames`, if any. */
export const endOf = (frames: Frame[]) => frames.find((f) => f.event === "end");
