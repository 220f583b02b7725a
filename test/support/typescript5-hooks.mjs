// openapi-typescript writes its output with the TypeScript 5 compiler API, which the project's
// TypeScript 7 (a native compiler) no longer ships: its `typescript` import is sent to the
// `typescript5` alias installed beside it. Registered with `node --import`.

import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')) {
    return next('typescript5', context);
  }
  return next(specifier, context);
}`),
);
