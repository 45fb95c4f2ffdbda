// `time_run`: when a message last ran, in its cell metadata, as Solveit writes it (Python's
// `datetime.now(timezone.utc).isoformat()`: microseconds and `+00:00`).

import { JsonObject } from '../base/json';

/** `2026-12-01T11:30:16.123000+00:00` for `at`. */
export function timeRunStamp(at: Date): string {
  return at.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/** The cell metadata with `time_run` set to `at`. */
export function withTimeRun(meta: JsonObject, at: Date): JsonObject {
  return { ...meta, time_run: timeRunStamp(at) };
}
