import { KvUnavailableError } from './store.js';

/**
 * Runs a request to a store's server, failing with `KvUnavailableError` after `timeoutMs` (said
 * in the message as `budgetMs`, the store's whole budget, when this is what is left of it). The
 * request itself goes on (it cannot be called back from the wire); `late` receives an answer that
 * comes after the timeout, so that a store can take back what it applied too late.
 */
export function answerWithin<T>(store: string, timeoutMs: number, op: () => Promise<T>, late?: (value: T) => void, budgetMs = timeoutMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    let settled = false;
    // When this process was busy past the timeout (a dataset compiled on reload), the timer and
    // the server's answer are due together, and timers run before sockets are read: the answer, if
    // it is there, is given that one turn of reading (setImmediate runs after it) before the timeout counts.
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        timedOut = true;
        reject(new KvUnavailableError(`${store} did not answer within ${budgetMs} ms`));
      });
    }, Math.max(0, timeoutMs));
    op().then(
      (value) => {
        if (timedOut) return late?.(value);
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (err: Error) => {
        if (timedOut) return;
        settled = true;
        clearTimeout(timer);
        reject(new KvUnavailableError(`${store}: ${err.message}`, { cause: err }));
      },
    );
  });
}
