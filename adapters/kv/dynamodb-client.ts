// What the DynamoDB store takes of `@aws-sdk/client-dynamodb`: its client and the two commands it
// sends. The Lambda folder's bundle takes this module where the code imports the package's
// namespace (build-lambda.ts says why), and so carries these three and what they use alone.

export { DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
