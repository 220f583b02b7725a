// Rows of a hand-written GeoNames postal-code file for the fixture datasets.

/**
 * One US row. GeoNames columns: country, zip, place, admin1 name, admin1 code (the state), admin2
 * name, admin2 code, admin3 name, admin3 code, lat, lng, accuracy. An empty state is a military
 * (APO/FPO) row.
 */
export const gazetteerRow = (zip: string, place: string, state: string, lat: number, lng: number): string =>
  ['US', zip, place, state ? `${state} name` : '', state, '', '', '', '', String(lat), String(lng), '1'].join('\t');
