import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { EventLoopMonitor } from '../../src/platform/infra/index.js';

// A serving thread with a heap limit (THREAD_HEAP_MB) sheds once what survives a full collection
// nears the limit, and serves again once the heap in use is back under it. The heap readings are
// the test's; the monitor's timer and its sampling are real.
describe('load shedding on the heap of a thread with a heap limit', () => {
  const LIMIT = 100 * 1024 * 1024;
  const watching = (share: number) => {
    const heap = { used_heap_size: 0, heap_size_limit: LIMIT };
    const monitor = new EventLoopMonitor({ maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, maxHeapShare: share }, () => ({
      ...heap,
    }));
    return { heap, monitor };
  };

  it('is on only when asked for', () => {
    assert.equal(watching(0).monitor.enabled, false);
    assert.equal(watching(0.8).monitor.enabled, true);
  });

  it('sheds after a full collection leaves more than the share, and serves again once the heap is back under it', async () => {
    const { heap, monitor } = watching(0.8);
    monitor.start();
    try {
      // A heap full of garbage is not a reason to shed: only what a full collection leaves counts
      // (read at once: the process's own full collections would read this heap too).
      heap.used_heap_size = 0.95 * LIMIT;
      assert.equal(monitor.overloaded(), false);

      monitor.afterFullCollection();
      assert.equal(monitor.overloaded(), true);
      await sleep(250);
      assert.equal(monitor.overloaded(), true, 'still above the share: still shedding');

      heap.used_heap_size = 0.5 * LIMIT;
      await sleep(250);
      assert.equal(monitor.overloaded(), false, 'the heap in use is under the share: serving again');

      heap.used_heap_size = 0.79 * LIMIT;
      monitor.afterFullCollection();
      assert.equal(monitor.overloaded(), false, 'under the share after a collection');
    } finally {
      monitor.stop();
    }
  });

  it('never sheds on the heap when the check is off', () => {
    const { heap, monitor } = watching(0);
    heap.used_heap_size = LIMIT;
    monitor.afterFullCollection();
    assert.equal(monitor.overloaded(), false);
  });
});
