// What a dynamic import of a CommonJS package gives. Node finds the package's names and puts them
// on the module's namespace; a bundle that carries the package (the Lambda build) gives its
// `module.exports` as `default` alone. The stores' clients (ioredis, the AWS SDK) and pino-pretty are
// imported so, only by the processes that use them.

/** The package's names, from its namespace or from its `default`: `name` is one the package exports. */
export function namesOf<T extends object>(imported: T, name: keyof T & string): T {
  return name in imported ? imported : (imported as { default: T }).default;
}
