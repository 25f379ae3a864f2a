// `npm start` (`npm start -- --exit` stops after the example run): `verdict start`, the CLI of
// apps/cli/main.ts bundled by scripts/bundle.mjs into .build/cli/verdict.mjs (about half a second,
// every time, so it is never stale) and run in this process with plain node.
// `npx tsx apps/cli/main.ts start` runs the same code from source.
// package.json runs this with node's EMBEDDED_NODE_FLAGS (scripts/bundle.mjs), each measured on
// the platform bench (embedded, 1,000 x 3, alternating runs):
//   --max-semi-space-size=4  V8's young generation otherwise grows to 3 x 16 MB under the
//                            platform's allocation rate: ~50 MB of peak resident memory for no
//                            measurable speed.
//   --heap-growing-percent=40  the old generation is collected at 1.4x its live size, not about
//                            twice: peak RSS ~362 -> ~325 MB, throughput unchanged.
//   --v8-pool-size=1         one V8 background thread instead of four: the main thread (which
//                            also runs both PGlite instances) is the bottleneck, and concurrent
//                            GC and compile jobs took its core, each with its own malloc arena.
//                            Together with the flag above: peak RSS ~286-299 MB, throughput
//                            ~1,000 -> ~1,300 results/s.
//   --no-liftoff             PGlite's WebAssembly compiled once, by the optimizing compiler, as each
//                            function is first called, instead of by the baseline compiler first and
//                            again when hot: the first run no longer runs PGlite's hot code unoptimized
//                            while the only background thread recompiles it. 8 alternating pairs:
//                            CPU per run median ~2,900 -> ~2,400 ms, peak RSS 290-309 -> 284-287 MB;
//                            the price is startup (an existing home ~0.7 s later, a new one's initdb
//                            ~3 s later).
// The bundling and running are scripts/verdict.mjs's (the CI form of any command), written once.
import "./verdict.mjs";
