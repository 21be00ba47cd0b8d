// Preloaded into the headless service (`--import`, through NODE_OPTIONS) by
// test/api/tick-shape.test.ts. After each of the first COUNTERSIGN_TEST_GC_FIRST
// responses it runs a full garbage collection once node's tick queue is empty (in a
// setImmediate, after the response's ticks ran) and writes `[tick] gc <n>` on stderr.
// After response COUNTERSIGN_TEST_TICK_REPORT it prints the state of the inline caches
// of process.nextTick's tick-object literal (V8's %DebugPrint of the function, on
// stdout, which the test sends to a file), between the strings `[tick] report begin`
// and `[tick] report end` (printed the same way), then writes `[tick] report done` on stderr.
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--allow-natives-syntax');
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const debugPrint = new Function('f', '%DebugPrint(f)');
const gcFirst = Number(process.env.COUNTERSIGN_TEST_GC_FIRST ?? 0);
const reportAt = Number(process.env.COUNTERSIGN_TEST_TICK_REPORT ?? 0);

let n = 0;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request') {
    const i = ++n;
    if (i <= gcFirst || i === reportAt)
      res.once('finish', () =>
        setImmediate(() => {
          if (i <= gcFirst) {
            gc();
            process.stderr.write(`[tick] gc ${i}\n`);
          }
          if (i === reportAt) {
            // All through V8's own stdout stream (so they come out in this order), which is
            // buffered when stdout is a pipe: the function is printed twice more after the
            // end mark, more than the buffer holds, so that the report itself is written out.
            debugPrint('[tick] report begin');
            debugPrint(process.nextTick);
            debugPrint('[tick] report end');
            debugPrint(process.nextTick);
            debugPrint(process.nextTick);
            process.stderr.write('[tick] report done\n');
          }
        }),
      );
  }
  return emit.apply(this, arguments);
};
