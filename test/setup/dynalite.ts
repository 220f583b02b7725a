import type { TestProject } from 'vitest/node';
import { createQuotaTable, startDynalite } from '../support/dynalite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Endpoint of the dynalite shared by the whole run, and a table made for it; tests keep to their own keys. */
    dynamodbEndpoint: string;
    dynamodbTable: string;
  }
}

/** One real DynamoDB implementation (dynalite, in memory) for the whole run, on a free loopback port. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynalite = await startDynalite();
  const table = 'carrier-quotas-test';
  await createQuotaTable(dynalite.endpoint, table);
  project.provide('dynamodbEndpoint', dynalite.endpoint);
  project.provide('dynamodbTable', table);
  return () => dynalite.stop();
}
