// The published OpenAPI document: generated from the route table and the response schemas, so it
// lists exactly the served routes with their parameters, bodies, 200 schemas and error answers.

import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../adapters/http/openapi.js';
import { buildRoutes } from '../../adapters/http/app.js';
import { sampleEngine } from './fixtures.js';

const routes = buildRoutes(sampleEngine());
const doc = buildOpenApiDocument(routes, '1.0.0') as any;

describe('the OpenAPI document', () => {
  it('lists every served route, and the health report, and nothing that is not served', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = routes.map((r) => `${r.method} ${r.path.replace(/:([a-z]+)/g, '{$1}')}`);
    expect(documented.sort()).toEqual([...served, 'GET /api/health'].sort());
  });

  it('secures every route but the health report with the apikey header scheme', () => {
    expect(doc.components.securitySchemes.apikey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.security).toEqual([{ apikey: [] }]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
  });

  it('documents parameters, bodies, the 200 schema and the error answers of each operation', () => {
    const search = doc.paths['/api/locations'].get;
    expect(search.parameters.map((p: any) => p.name)).toEqual(['zip', 'city', 'state', 'radius', 'carriers']);
    expect(search.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchResult' });
    expect(Object.keys(search.responses).sort()).toEqual(['200', '400', '401', '429', '503']);
    expect(search.responses['429'].headers['Retry-After']).toBeDefined();

    const station = doc.paths['/api/carrier-a-location/station/{num}'].get;
    expect(station.parameters).toContainEqual(expect.objectContaining({ in: 'path', name: 'num', required: true }));

    const batch = doc.paths['/api/carrier-c-location/batch'].post;
    expect(batch.requestBody.content['application/json'].schema.required).toEqual(['country_codes']);

    // 404 for an unknown id; 400 for one that is not percent-encoded UTF-8.
    expect(Object.keys(doc.paths['/api/drop-points/{id}'].get.responses).sort()).toEqual(['200', '400', '401', '404', '429', '503']);
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error'] });
  });
});
