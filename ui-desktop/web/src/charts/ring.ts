/**
 * A fixed-size ring of samples for the live graphs. Each series is stored twice over
 * (slot i and i + capacity), so the last `length` values are always one contiguous
 * subarray: the chart gets ordered views without copying or allocating per sample.
 */
export class Ring {
  readonly capacity: number;
  private readonly data: Float64Array[];
  private head = 0;
  private count = 0;

  constructor(capacity: number, series: number) {
    this.capacity = capacity;
    this.data = Array.from({ length: series }, () => new Float64Array(capacity * 2));
  }

  get length(): number {
    return this.count;
  }

  /** Appends one value per series, dropping the oldest when full. */
  push(...values: number[]): void {
    const i = this.head;
    for (let s = 0; s < this.data.length; s++) {
      const v = values[s] ?? NaN;
      this.data[s]![i] = v;
      this.data[s]![i + this.capacity] = v;
    }
    this.head = (i + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** Series `s`, oldest first (a view: valid until the next push). */
  view(s: number): Float64Array {
    const start = this.count < this.capacity ? 0 : this.head;
    return this.data[s]!.subarray(start, start + this.count);
  }

  /** Every series, oldest first, in uPlot's aligned-data shape. */
  views(): Float64Array[] {
    return this.data.map((_, s) => this.view(s));
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }
}
