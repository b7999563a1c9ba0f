export interface WallClockAssert {
  /** 1-based line of the `expect(`. */
  line: number;
  /** The comparison matcher, e.g. `toBeLessThan`. */
  matcher: string;
  /** The expression under test. */
  subject: string;
}
export function findWallClockAsserts(text: string): WallClockAssert[];
export function describeWallClockAssert(file: string, found: WallClockAssert): string;
