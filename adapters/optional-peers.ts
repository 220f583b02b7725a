// The package's optional peer dependencies: a store's client, the Express server, the /docs page's
// assets. Each is imported only by what needs it; where it is not installed, the error says which
// package to install rather than Node's "Cannot find package".

const OPTIONAL_PEERS = ['@aws-sdk/client-dynamodb', 'express', 'ioredis', 'swagger-ui-dist'];

/** The optional peer a failed import was looking for, if that is what failed. */
export function missingPeer(err: unknown): string | undefined {
  if ((err as { code?: unknown })?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const named = /Cannot find package '([^']+)'/.exec((err as Error).message)?.[1];
  return OPTIONAL_PEERS.find((name) => named === name);
}

/** What to tell someone whose process needs `peer` and does not have it. */
export const notInstalled = (peer: string) => `${peer} is not installed (an optional peer dependency of carrier-locations): npm install ${peer}`;
