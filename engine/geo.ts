// Great-circle geometry in miles on a sphere of the mean Earth radius: the one haversine every
// distance in the engine comes from, and how distances are rounded for output.

export const EARTH_RADIUS_MILES = 3958.8;
/** Radians per degree. */
export const RAD = Math.PI / 180;

/** hav(θ) = sin²(θ / 2). */
export function hav(radians: number): number {
  const s = Math.sin(radians / 2);
  return s * s;
}

/**
 * The haversine term h = hav(Δlat) + cos(lat1) cos(lat2) hav(Δlng) of two points in degrees, with
 * their latitudes' cosines passed in (indexes keep them per point). Monotonic in the distance, so
 * searches compare terms and take the arcsine only of what they keep.
 */
export function haversineTerm(lat1: number, lng1: number, cosLat1: number, lat2: number, lng2: number, cosLat2: number): number {
  return hav((lat2 - lat1) * RAD) + cosLat1 * cosLat2 * hav((lng2 - lng1) * RAD);
}

/** Miles of a haversine term: 2R asin(√h). */
export function termToMiles(h: number): number {
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The haversine term of a distance in miles (1, the antipode, for anything half the globe or more). */
export function milesToTerm(miles: number): number {
  return miles >= Math.PI * EARTH_RADIUS_MILES ? 1 : hav(miles / EARTH_RADIUS_MILES);
}

/**
 * The largest latitude difference, in degrees, of two points whose haversine term is at most h
 * (hav(Δlat) <= h), rounded up: a point farther in latitude alone is farther than h.
 */
export function latitudeReach(h: number): number {
  return h >= 1 ? 180 : ((2 * Math.asin(Math.sqrt(h))) / RAD) * (1 + 1e-9) + 1e-9;
}

/** Great-circle miles between two points given in degrees. */
export function distanceMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return termToMiles(haversineTerm(lat1, lng1, Math.cos(lat1 * RAD), lat2, lng2, Math.cos(lat2 * RAD)));
}

/** Rounds a distance to 0.1 mi for output; ordering always uses the unrounded value. */
export function roundMiles(miles: number): number {
  return Math.round(miles * 10) / 10;
}

/**
 * JSON text of roundMiles(miles), written from whole tenths: integer formatting is several times
 * cheaper than printing a double, and the text is the same ("12.1", "12", "0.4"). The texts of the
 * first 1,000 miles are made once and reused, so writing a distance allocates nothing.
 */
export function roundMilesJson(miles: number): string {
  const tenths = Math.round(miles * 10);
  if (tenths >= 0 && tenths < MILES_TEXTS) return (milesText[tenths] ??= tenthsText(tenths));
  return tenthsText(tenths);
}

const MILES_TEXTS = 10_000;
const milesText = new Array<string | null>(MILES_TEXTS).fill(null);

function tenthsText(tenths: number): string {
  const whole = Math.floor(tenths / 10);
  const tenth = tenths - whole * 10;
  return tenth === 0 ? String(whole) : `${whole}.${tenth}`;
}

/**
 * Longitude/latitude boxes that together contain every point within `radiusMiles` of (lat, lng).
 * The longitude half-width is the exact extent of a spherical cap, asin(sin(d) / cos(lat)), so the
 * box never clips the circle; a cap that crosses the antimeridian is split into two boxes, and one
 * that contains a pole spans all longitudes. Written into `out` as [minLng, minLat, maxLng, maxLat]
 * quadruples; returns how many boxes (1 or 2).
 */
export function boundingBoxes(lat: number, lng: number, radiusMiles: number, out: Float64Array): number {
  const angular = radiusMiles / EARTH_RADIUS_MILES;
  const dLat = angular / RAD;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const ratio = Math.sin(angular) / Math.cos(lat * RAD);
  if (maxLat >= 90 || minLat <= -90 || angular >= Math.PI / 2 || ratio >= 1) {
    out[0] = -180; out[1] = minLat; out[2] = 180; out[3] = maxLat;
    return 1;
  }
  const dLng = Math.asin(ratio) / RAD;
  const west = lng - dLng;
  const east = lng + dLng;
  if (west < -180) {
    out[0] = -180; out[1] = minLat; out[2] = east; out[3] = maxLat;
    out[4] = west + 360; out[5] = minLat; out[6] = 180; out[7] = maxLat;
    return 2;
  }
  if (east > 180) {
    out[0] = west; out[1] = minLat; out[2] = 180; out[3] = maxLat;
    out[4] = -180; out[5] = minLat; out[6] = east - 360; out[7] = maxLat;
    return 2;
  }
  out[0] = west; out[1] = minLat; out[2] = east; out[3] = maxLat;
  return 1;
}
