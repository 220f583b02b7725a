import { KEYS } from '../http/fixtures.js';

/**
 * Clients calling GET /api/locations?zip=60601 back to back until stopped: how many answers named
 * each set of carriers (`served`, keyed by the ids joined), and every failure, a non-200 or a
 * request that got no answer at all.
 */
export function keepCalling(url: string, clients: number): { served: Map<string, number>; failures: string[]; stop(): Promise<void> } {
  const served = new Map<string, number>();
  const failures: string[] = [];
  let calling = true;
  const running = Array.from({ length: clients }, async () => {
    while (calling) {
      try {
        const reply = await fetch(`${url}/api/locations?zip=60601`, { headers: { 'x-api-key': KEYS.pro } });
        const body = await reply.json();
        if (reply.status !== 200) failures.push(`${reply.status} ${JSON.stringify(body)}`);
        else served.set(body.carriers.join(), (served.get(body.carriers.join()) ?? 0) + 1);
      } catch (err) {
        failures.push(String(err));
      }
    }
  });
  return {
    served,
    failures,
    async stop() {
      calling = false;
      await Promise.all(running);
    },
  };
}
