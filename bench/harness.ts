// Shared timing helpers for the benchmarks: median of N timed runs after a warm-up,
// ratios against a baseline measured in the same process, and peak RSS.
import { performance } from "node:perf_hooks";

export interface Timing {
  name: string;
  medianMs: number;
}

export async function time(name: string, fn: () => unknown, { runs = 5, warmup = 1 } = {}): Promise<Timing> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { name, medianMs: samples[Math.floor(samples.length / 2)] };
}

export function ratio(value: Timing, baseline: Timing): string {
  return `${(value.medianMs / baseline.medianMs).toFixed(2)}x`;
}

export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}
