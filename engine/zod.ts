// zod as the query runtime uses it: zod/mini, the functional form of zod's API, with English messages.
// Classic zod's schemas carry its whole chainable API (`schema.min(1).optional()`), so its module
// defines every schema type a chain can reach and each schema it builds does more: importing it and
// building the request schemas was the largest part of a Lambda start's modules. zod/mini defines
// and builds only what is named. The build (data/) and the OpenAPI document's chunk use classic
// zod; both read these schemas, as both forms are built on zod's core.
//
// Import it as a namespace (`import * as z from './zod.js'`): the bundle then keeps only what is used.

import { config } from 'zod/mini';
import { en } from 'zod/locales';

export * from 'zod/mini';

// Classic zod sets English messages when it builds its first schema; zod/mini leaves messages to
// the application (without a locale every default message is "Invalid input").
config(en());
