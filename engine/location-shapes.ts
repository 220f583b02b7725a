// A location in each of the API's shapes: the carrier location record of per-carrier endpoints,
// the normalized location of unified results (as an object or as JSON text), and the nearest
// terminal of which-carriers and can-reach.

import { asciiJson } from './ascii-json.js';
import type { Gazetteer } from './gazetteer.js';
import { roundMiles, roundMilesJson } from './geo.js';
import type { Network } from './network.js';
import type { LocationRecord, MatchKind, NearestTerminal, NormalizedLocation } from './responses.js';

/** The fields that follow a location's fixed ones, up to its distance. */
const MATCH_JSON: Record<MatchKind, string> = { exact: ',"match":"exact","distanceMiles":', nearby: ',"match":"nearby","distanceMiles":' };

const BLOCK_BITS = 10;
const BLOCK = 1 << BLOCK_BITS;

/**
 * A value kept per location, by blocks of BLOCK locations, each block made when its first value is
 * kept: an engine's first answers pay for a block or two, not for a slot per location of the
 * dataset, and its memory grows with the locations it has answered with. A block is packed from
 * the start (an array filled at random indexes would fall into slow dictionary mode).
 */
class PerLocation<T> {
  private readonly blocks: ((T | null)[] | null)[];

  constructor(locationCount: number) {
    this.blocks = new Array<(T | null)[] | null>(Math.ceil(locationCount / BLOCK)).fill(null);
  }

  /** The value kept for location l, or null. */
  get(l: number): T | null {
    const block = this.blocks[l >>> BLOCK_BITS];
    return block === null ? null : block[l & (BLOCK - 1)];
  }

  set(l: number, value: T): T {
    const block = (this.blocks[l >>> BLOCK_BITS] ??= new Array<T | null>(BLOCK).fill(null));
    return (block[l & (BLOCK - 1)] = value);
  }
}

/** A location's text fields as the unified answers and the nearest terminal show them. */
interface LocationCard {
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  terminalCode: string;
  phone: string;
}

export class LocationShapes {
  /** Per match kind, each location's JSON of a normalized location up to its distance. */
  private readonly prefixJson: Record<MatchKind, PerLocation<string>>;
  /**
   * Each location's card. A warm search reads a card's seven fields where it would read nine
   * string columns (and join the street's two lines) for each location it shows.
   */
  private readonly cards: PerLocation<LocationCard>;

  constructor(
    private readonly net: Network,
    private readonly gazetteer: Gazetteer,
  ) {
    this.prefixJson = { exact: new PerLocation(net.locationCount), nearby: new PerLocation(net.locationCount) };
    this.cards = new PerLocation(net.locationCount);
  }

  record(l: number): LocationRecord {
    const t = this.net.t;
    const carrier = this.net.carriers[t.locCarrier[l]];
    return {
      name: t.locName.at(l),
      carrier: carrier.id,
      address: {
        line1: t.locLine1.at(l),
        line2: t.locLine2.at(l),
        city: t.locCity.at(l),
        state: t.locState.at(l),
        zipCode: t.locZip.at(l),
        country: t.locCountry.at(l),
      },
      phone: t.locPhone.at(l),
      fax: t.locFax.at(l),
      email: t.locEmail.at(l),
      location: { latitude: t.locLat[l], longitude: t.locLng[l] },
      terminalCode: t.locCode.at(l),
      scac: carrier.scac,
    };
  }

  /** A point of the points-served table as a record: the served place, with its terminal's code and contacts. */
  servedPoint(p: number): LocationRecord {
    const t = this.net.t;
    const terminal = this.record(t.spTerminal[p]);
    const zip = String(t.spZip[p]).padStart(5, '0');
    const z = this.gazetteer.zipIndexOf(t.spZip[p]);
    const { zipLat, zipLng } = this.gazetteer.table;
    return {
      ...terminal,
      name: `${t.spCity.at(p)}, ${t.spState.at(p)} ${zip}`,
      address: { line1: '', line2: '', city: t.spCity.at(p), state: t.spState.at(p), zipCode: zip, country: 'US' },
      location: z < 0 ? terminal.location : { latitude: zipLat[z], longitude: zipLng[z] },
    };
  }

  normalized(l: number, match: MatchKind, miles: number): NormalizedLocation {
    return this.normalizedOf(l, this.card(l), match, miles);
  }

  private normalizedOf(l: number, card: LocationCard, match: MatchKind, miles: number): NormalizedLocation {
    const t = this.net.t;
    const carrier = this.net.carriers[t.locCarrier[l]];
    return {
      carrier: carrier.id,
      carrierName: carrier.name,
      name: card.name,
      address: card.address,
      city: card.city,
      state: card.state,
      zip: card.zip,
      lat: t.locLat[l],
      lng: t.locLng[l],
      terminalCode: card.terminalCode,
      phone: card.phone,
      match,
      distanceMiles: roundMiles(miles),
    };
  }

  /** JSON text of normalized(l, match, miles), from a per-location cache of everything before the distance. */
  normalizedJson(l: number, match: MatchKind, miles: number): string {
    const prefixes = this.prefixJson[match];
    let prefix = prefixes.get(l);
    if (prefix === null) {
      // The card read, not kept: the prefix holds its text, and the JSON answers need nothing else.
      const { match: _match, distanceMiles: _miles, ...fixed } = this.normalizedOf(l, this.readCard(l), match, miles);
      prefix = prefixes.set(l, asciiJson(JSON.stringify(fixed).slice(0, -1) + MATCH_JSON[match]));
    }
    return prefix + roundMilesJson(miles) + '}';
  }

  nearestTerminal(l: number, miles: number): NearestTerminal {
    const card = this.card(l);
    return { name: card.name, address: card.address, city: card.city, state: card.state, zip: card.zip, distanceMiles: roundMiles(miles) };
  }

  private card(l: number): LocationCard {
    return this.cards.get(l) ?? this.cards.set(l, this.readCard(l));
  }

  private readCard(l: number): LocationCard {
    const t = this.net.t;
    const line1 = t.locLine1.at(l);
    const line2 = t.locLine2.at(l);
    return {
      name: t.locName.at(l),
      address: line2 ? `${line1}, ${line2}` : line1,
      city: t.locCity.at(l),
      state: t.locState.at(l),
      zip: t.locZip.at(l),
      terminalCode: t.locCode.at(l),
      phone: t.locPhone.at(l),
    };
  }
}
