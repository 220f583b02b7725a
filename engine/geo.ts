// Great-circle geometry in miles on a sphere of the mean Earth radius.

export const EARTH_RADIUS_MILES = 3958.8;
const RAD = Math.PI / 180;

/** Haversine distance in miles between two points given in degrees. */
export function distanceMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const sinDLat = Math.sin(((lat2 - lat1) * RAD) / 2);
  const sinDLng = Math.sin(((lng2 - lng1) * RAD) / 2);
  const h = sinDLat * sinDLat + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * sinDLng * sinDLng;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Rounds a distance for output; ordering always uses the unrounded value. */
export function roundMiles(miles: number): number {
  return Math.round(miles * 10) / 10;
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
  if (maxLat >= 90 || minLat <= -90 || angular >= Math.PI / 2) {
    out[0] = -180; out[1] = minLat; out[2] = 180; out[3] = maxLat;
    return 1;
  }
  const ratio = Math.sin(angular) / Math.cos(lat * RAD);
  if (ratio >= 1) {
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
