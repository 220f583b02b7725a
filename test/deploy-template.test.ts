// deploy/template.yaml, read as CloudFormation reads it: its short-form tags (!Ref, !GetAtt, ...)
// become the long forms. Its function must name the bundle's real file and export, its table the
// key the DynamoDB store writes, and its role allow what the store does on that table and no more.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, type CollectionTag, type ScalarTag } from 'yaml';
import { NODE_TARGET_MAJOR } from '../adapters/build-bundles.js';
import { buildLambda, LAMBDA_OUT_DIR } from '../adapters/build-lambda.js';

const deployDir = fileURLToPath(new URL('../deploy/', import.meta.url));

/** CloudFormation's short forms: `!Ref X` is `{ Ref: X }`, `!GetAtt A.B` is `{ 'Fn::GetAtt': [A, B] }`, the rest `{ 'Fn::Name': value }`. */
const scalar = (tag: string, resolveValue: (text: string) => unknown): ScalarTag => ({ tag, resolve: resolveValue });
const longForm = (name: string): ScalarTag => scalar(`!${name}`, (text) => ({ [`Fn::${name}`]: text }));
const listForm = (name: string): CollectionTag => ({ tag: `!${name}`, collection: 'seq', resolve: (seq) => ({ [`Fn::${name}`]: seq.toJSON() }) });
const CLOUDFORMATION_TAGS = [
  scalar('!Ref', (text) => ({ Ref: text })),
  scalar('!GetAtt', (text) => ({ 'Fn::GetAtt': text.split('.') })),
  longForm('Sub'),
  ...['If', 'Equals', 'Not', 'Join', 'Sub'].map(listForm),
];

// A parsed document, walked by the assertions below.
type Template = Record<string, any>;
const template: Template = parse(readFileSync(join(deployDir, 'template.yaml'), 'utf8'), { customTags: CLOUDFORMATION_TAGS });
const resources = template.Resources;
const fn = resources.CarrierLocationsFunction;
const role = resources.CarrierLocationsRole;

describe('deploy/template.yaml', () => {
  let bundleDir: string;
  beforeAll(async () => {
    bundleDir = mkdtempSync(join(tmpdir(), 'carrier-sam-'));
    await buildLambda({ outDir: bundleDir });
  }, 120_000);
  afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

  it("takes the function's code from the folder npm run build:lambda writes, and its handler is the bundle's real export", async () => {
    expect(template.Transform).toBe('AWS::Serverless-2016-10-31');
    expect(fn.Type).toBe('AWS::Serverless::Function');
    expect(resolve(deployDir, fn.Properties.CodeUri)).toBe(LAMBDA_OUT_DIR);
    // `file.export`: Lambda's Node runtime loads file.mjs (an ES module) and calls that export.
    const [file, exported] = fn.Properties.Handler.split('.');
    const bundle = await import(pathToFileURL(join(bundleDir, `${file}.mjs`)).href);
    expect(typeof bundle[exported]).toBe('function');
    // A Node runtime Lambda still supports, no older than the Node the bundle is built for.
    const runtime = /^nodejs(\d+)\.x$/.exec(template.Globals.Function.Runtime);
    expect(runtime).not.toBeNull();
    expect(Number(runtime![1])).toBeGreaterThanOrEqual(NODE_TARGET_MAJOR);
  });

  it('declares the table the store writes: partition key pk (String), TTL on expiresAt, on-demand', () => {
    expect(resources.QuotaTable).toMatchObject({
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      },
    });
  });

  it('names the table in DYNAMODB_TABLE and allows UpdateItem and GetItem on it alone', () => {
    const env = fn.Properties.Environment.Variables;
    expect(env.DYNAMODB_TABLE).toEqual({ 'Fn::If': ['QuotasInDynamoDb', { Ref: 'QuotaTable' }, ''] });
    expect(env).toMatchObject({ API_KEYS: { Ref: 'ApiKeys' }, NODE_ENV: 'production', REDIS_URL: { Ref: 'RedisUrl' } });
    const [dynamo] = role.Properties.Policies;
    expect(dynamo['Fn::If'][0]).toBe('QuotasInDynamoDb');
    expect(dynamo['Fn::If'][1].PolicyDocument.Statement).toEqual([
      { Effect: 'Allow', Action: ['dynamodb:UpdateItem', 'dynamodb:GetItem'], Resource: { 'Fn::GetAtt': ['QuotaTable', 'Arn'] } },
    ]);
    expect(template.Parameters.ApiKeys.NoEcho).toBe(true);
  });

  it("gives the function a role of its own, with the VPC's network interfaces allowed only in a VPC", () => {
    // A role SAM makes gets the VPC access policy whenever VpcConfig is present, even as an If
    // that leaves it out; SAM adds nothing to a role the function names.
    expect(fn.Properties.Role).toEqual({ 'Fn::GetAtt': ['CarrierLocationsRole', 'Arn'] });
    expect(fn.Properties.Policies).toBeUndefined();
    expect(role.Type).toBe('AWS::IAM::Role');
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
    ]);
    const policy = (name: string) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:iam::aws:policy/service-role/${name}` });
    expect(role.Properties.ManagedPolicyArns).toEqual([
      policy('AWSLambdaBasicExecutionRole'),
      { 'Fn::If': ['InVpc', policy('AWSLambdaVPCAccessExecutionRole'), { Ref: 'AWS::NoValue' }] },
    ]);
  });

  it('routes every path and method of an HTTP API to the function', () => {
    expect(resources.HttpApi.Type).toBe('AWS::Serverless::HttpApi');
    expect(fn.Properties.Events.Api).toEqual({ Type: 'HttpApi', Properties: { ApiId: { Ref: 'HttpApi' }, Path: '/{proxy+}', Method: 'ANY' } });
  });
});
