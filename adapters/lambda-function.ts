// The Lambda folder's entry (`npm run build:lambda`): the handler, in a module whose load ends only
// once the container's start has. Lambda's init phase, which provisioned concurrency runs before
// any request arrives, then covers the whole start, the store's client included, rather than what
// the start does before its first wait. A top-level await makes this an async module, which
// require() cannot load: the package's `carrier-locations/lambda` stays the plain module, with
// `ready` for an ES module entry of one's own.

import { setLambdaCompilers } from './lambda-compilers.js';
import { ready } from './lambda.js';

export { handler } from './lambda.js';
export type { LambdaEvent, LambdaResult } from './lambda.js';

await ready;
setLambdaCompilers();
