// The /map page: searches and carrier networks drawn with Leaflet over a basemap the server ships
// (US states and the world's countries from us-atlas / world-atlas), or over MAP_TILES_URL's tiles.
// It asks the API for GeoJSON with the key typed in, which stays in sessionStorage: never in the
// URL (the view is in the hash, without it) and never in localStorage.

import L from 'leaflet';
import { feature } from 'topojson-client';
import type { Feature, FeatureCollection, Geometry, Point } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

const KEY_STORAGE = 'carrier-locations:key';
const MILE_METRES = 1609.344;
/** Colour-blind safe (Okabe-Ito and Tol), readable on the pale basemap. */
const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#882255', '#117733', '#332288', '#999933', '#000000'];
const SEARCH_FIELDS = ['zip', 'city', 'state', 'radius', 'carriers'] as const;

type Properties = Record<string, any>;
type LocationCollection = FeatureCollection<Point | null, Properties> & Properties;

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const page = document.body.dataset;
const apiBase = new URL(page.api ?? 'api/', location.href);
const assetBase = new URL(page.assets ?? 'map/', location.href);

const searchForm = byId<HTMLFormElement>('search-form');
const networkForm = byId<HTMLFormElement>('network-form');
const keyInput = byId<HTMLInputElement>('key');
const networkSelect = byId<HTMLSelectElement>('network');
const statusLine = byId<HTMLParagraphElement>('status');
const errorLine = byId<HTMLParagraphElement>('error');
const legend = byId<HTMLUListElement>('legend');
const list = byId<HTMLOListElement>('results');

const map = L.map('map', { zoomSnap: 0.5, worldCopyJump: true }).setView([39.5, -98.35], 4);
map.attributionControl.setPrefix('Leaflet');
const LAND = '#f1efe8';
const STATE_LAND = '#fbfaf6';
const countries = L.geoJSON(undefined, { interactive: false, style: () => ({ color: '#a3a8b0', weight: 0.6, fillColor: LAND, fillOpacity: page.tiles ? 0 : 1 }) });
const states = L.geoJSON(undefined, { interactive: false, style: () => ({ color: '#8a8f98', weight: 0.8, fillColor: STATE_LAND, fillOpacity: page.tiles ? 0 : 1 }) });
const results = L.featureGroup().addTo(map);

async function drawBasemap(): Promise<void> {
  const load = async (name: string) => (await fetch(new URL(name, assetBase))).json() as Promise<Topology>;
  if (page.tiles) L.tileLayer(page.tiles, { maxZoom: 18, attribution: page.tilesAttribution ?? '' }).addTo(map);
  else map.attributionControl.addAttribution('Natural Earth, via us-atlas and world-atlas');
  const [world, us] = await Promise.all([load('countries.json'), load('states.json')]);
  countries.addData(feature(world, world.objects.countries as GeometryCollection)).addTo(map);
  states.addData(feature(us, us.objects.states as GeometryCollection)).addTo(map);
  results.bringToFront();
}

class ApiError extends Error {}

async function ask(path: string, params?: URLSearchParams): Promise<LocationCollection | Properties> {
  const url = new URL(path, apiBase);
  if (params) url.search = params.toString();
  const response = await fetch(url, { headers: { 'X-API-Key': keyInput.value.trim(), Accept: 'application/geo+json, application/json;q=0.9' } });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(typeof body?.error === 'string' ? body.error : `the API answered ${response.status}`);
  return body;
}

function showError(message: string): void {
  errorLine.textContent = message;
  errorLine.hidden = message === '';
}

const colours = new Map<string, string>();
function colourOf(carrier: string): string {
  if (!colours.has(carrier)) colours.set(carrier, PALETTE[colours.size % PALETTE.length]);
  return colours.get(carrier)!;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A search result's address is one line; a carrier's location record has its parts. */
function addressOf(p: Properties): string {
  if (typeof p.address === 'string') return `${p.address}, ${p.city}, ${p.state} ${p.zip}`;
  const a = p.address ?? {};
  return [a.line1, a.line2, `${a.city}, ${a.state} ${a.zipCode}`.trim(), a.country === 'US' ? '' : a.country].filter(Boolean).join(', ');
}

const miles = (p: Properties) => (typeof p.distanceMiles === 'number' ? `${p.distanceMiles} mi` : '');

function popupOf(p: Properties): HTMLElement {
  const box = element('div', undefined, 'popup');
  box.append(element('strong', p.name), element('div', addressOf(p)));
  if (p.phone) {
    const line = element('div', 'Phone: ');
    const phone = element('a', p.phone);
    phone.href = `tel:${p.phone}`;
    line.append(phone);
    box.append(line);
  }
  if (miles(p)) box.append(element('div', `Distance: ${miles(p)}`));
  return box;
}

function showLegend(carriers: string[], names: Map<string, string>): void {
  legend.replaceChildren(
    ...carriers.map((carrier) => {
      const item = element('li');
      const swatch = element('span', undefined, 'swatch');
      swatch.style.background = colourOf(carrier);
      item.append(swatch, element('span', names.get(carrier) ? `${names.get(carrier)} (${carrier})` : carrier));
      return item;
    }),
  );
}

/** Markers and list items in the answer's order; hovering or choosing one highlights the other. */
function showLocations(collection: LocationCollection, centre?: { lat: number; lng: number; radiusMiles: number }): void {
  results.clearLayers();
  list.replaceChildren();
  const located = collection.features.filter((f): f is Feature<Point, Properties> => f.geometry !== null);
  const names = new Map(located.map((f) => [String(f.properties.carrier), String(f.properties.carrierName ?? collection.name ?? '')]));
  showLegend([...names.keys()].sort(), names);
  let active: { marker: L.CircleMarker; item: HTMLLIElement } | undefined;
  const highlight = (marker: L.CircleMarker, item: HTMLLIElement) => {
    if (active) {
      active.marker.setStyle({ weight: 1.5, radius: 7 } as L.CircleMarkerOptions);
      active.item.classList.remove('active');
    }
    active = { marker, item };
    marker.setStyle({ weight: 3, radius: 10 } as L.CircleMarkerOptions).bringToFront();
    item.classList.add('active');
  };
  for (const f of located) {
    const p = f.properties;
    const [lng, lat] = f.geometry.coordinates;
    const marker = L.circleMarker([lat, lng], {
      radius: 7,
      color: '#ffffff',
      weight: 1.5,
      fillColor: colourOf(p.carrier),
      fillOpacity: 0.9,
      className: 'result-marker',
    }).bindPopup(popupOf(p));
    marker.addTo(results);
    const item = element('li');
    item.dataset.carrier = p.carrier;
    item.dataset.terminalCode = p.terminalCode;
    const button = element('button');
    button.type = 'button';
    const swatch = element('span', undefined, 'swatch');
    swatch.style.background = colourOf(p.carrier);
    button.append(swatch, element('span', p.name, 'name'), element('span', [addressOf(p), miles(p)].filter(Boolean).join(' · '), 'detail'));
    button.addEventListener('click', () => {
      highlight(marker, item);
      map.panTo(marker.getLatLng());
      marker.openPopup();
    });
    button.addEventListener('mouseenter', () => highlight(marker, item));
    button.addEventListener('focus', () => highlight(marker, item));
    marker.on('mouseover click', () => {
      highlight(marker, item);
      item.scrollIntoView({ block: 'nearest' });
    });
    item.append(button);
    list.append(item);
  }
  if (centre) {
    if (centre.radiusMiles > 0) {
      L.circle([centre.lat, centre.lng], { radius: centre.radiusMiles * MILE_METRES, color: '#333', weight: 1.5, dashArray: '6 4', fill: false, interactive: false }).addTo(results);
    }
    L.circleMarker([centre.lat, centre.lng], { radius: 5, color: '#111', weight: 2, fillColor: '#fff', fillOpacity: 1, className: 'search-centre' })
      .bindTooltip('Search centre')
      .addTo(results);
  }
  if (results.getLayers().length > 0) map.fitBounds(results.getBounds().pad(0.25), { maxZoom: 11 });
}

/** Shades the US states and the other countries a carrier serves (the US itself is shown by its states). */
function shade(coveredStates: Set<string>, coveredCountries: Set<string>, colour: string): void {
  const style = (covered: Set<string>, land: string) => (f?: Feature<Geometry, Properties>) =>
    covered.has(f?.properties?.code) ? { fillColor: colour, fillOpacity: 0.3 } : { fillColor: land, fillOpacity: page.tiles ? 0 : 1 };
  states.setStyle(style(coveredStates, STATE_LAND));
  countries.setStyle(style(coveredCountries, LAND));
}

function searchParams(): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of SEARCH_FIELDS) {
    const value = (searchForm.elements.namedItem(name) as HTMLInputElement).value.trim();
    if (value !== '') params.set(name, value);
  }
  return params;
}

/** Each view shown counts one; an answer that comes back after a newer view was asked for is dropped. */
let views = 0;

async function runSearch(params: URLSearchParams, view: number): Promise<void> {
  statusLine.textContent = 'Searching…';
  const answer = (await ask('locations', params)) as LocationCollection;
  if (view !== views) return;
  shade(new Set(), new Set(), '');
  const place = answer.resolved as { city: string; state: string; lat: number; lng: number } | null;
  // A state alone has no nearby step, so no radius to draw.
  const stateOnly = answer.query.zip === '' && answer.query.city === '';
  showLocations(answer, place ? { lat: place.lat, lng: place.lng, radiusMiles: stateOnly ? 0 : answer.query.radiusMiles } : undefined);
  const where = place ? [place.city, place.state].filter(Boolean).join(', ') : 'a place the gazetteer does not know';
  statusLine.textContent = `${answer.total} location${answer.total === 1 ? '' : 's'} for ${where} (${answer.matchType} match).`;
  const suggestions = (answer.suggestions ?? []) as { city: string; state: string; zip: string }[];
  if (suggestions.length > 0) statusLine.append(' Did you mean: ', ...suggestionLinks(params, suggestions), '?');
}

/** The places the API suggests for a city it does not know, each a link to the same search there. */
function suggestionLinks(params: URLSearchParams, suggestions: { city: string; state: string; zip: string }[]): (Node | string)[] {
  return suggestions.flatMap((s, i) => {
    // The search asked, at the suggested city instead, its fields in the form's order.
    const place: Record<string, string | null> = { zip: null, city: s.city, state: s.state };
    const view = new URLSearchParams(
      SEARCH_FIELDS.flatMap((name) => {
        const value = name in place ? place[name] : params.get(name);
        return value ? [[name, value]] : [];
      }),
    );
    const link = element('a', `${s.city}, ${s.state} (${s.zip})`);
    link.href = `#${view}`;
    return i === 0 ? [link] : ['; ', link];
  });
}

async function runNetwork(carrier: string, view: number): Promise<void> {
  statusLine.textContent = 'Loading the network…';
  const answer = (await ask(`networks/${encodeURIComponent(carrier)}`)) as LocationCollection;
  if (view !== views) return;
  const covered = new Set<string>(answer.states.filter((s: Properties) => s.country === 'US' && (s.locations > 0 || s.zipsServed > 0)).map((s: Properties) => s.state));
  const abroad = new Set<string>(answer.countries.map((c: Properties) => c.country).filter((c: string) => c !== 'US'));
  showLocations(answer);
  shade(covered, abroad, colourOf(answer.carrier));
  const elsewhere = abroad.size > 0 ? ` and ${abroad.size} other countr${abroad.size === 1 ? 'y' : 'ies'}` : '';
  statusLine.textContent = `${answer.name}: ${answer.totalLocations} locations; ${covered.size} US states${elsewhere} served (shaded).`;
}

let carriersListed = '';
async function listCarriers(): Promise<void> {
  const key = keyInput.value.trim();
  if (key === '' || carriersListed === key) return;
  const answer = (await ask('networks')) as { carriers: { carrier: string; name: string }[] };
  carriersListed = key;
  const chosen = new URLSearchParams(location.hash.slice(1)).get('carrier') ?? networkSelect.value;
  networkSelect.replaceChildren(
    ...answer.carriers.map(({ carrier, name }) => {
      const option = element('option', `${name} (${carrier})`);
      option.value = carrier;
      option.selected = carrier === chosen;
      return option;
    }),
  );
}

/** The view in the hash (never the key): a link reopens it once a key is entered. */
async function showView(): Promise<void> {
  const view = new URLSearchParams(location.hash.slice(1));
  for (const name of SEARCH_FIELDS) (searchForm.elements.namedItem(name) as HTMLInputElement).value = view.get(name) ?? (name === 'radius' ? '25' : '');
  if (keyInput.value.trim() === '') {
    if (view.toString() !== '') statusLine.textContent = 'Enter your API key to run this search.';
    return;
  }
  showError('');
  const current = ++views;
  try {
    await listCarriers();
    const carrier = view.get('carrier');
    if (carrier) await runNetwork(carrier, current);
    else if (view.toString() !== '') await runSearch(view, current);
  } catch (err) {
    if (current !== views) return;
    statusLine.textContent = '';
    results.clearLayers();
    list.replaceChildren();
    legend.replaceChildren();
    showError(err instanceof ApiError ? err.message : `The API could not be reached: ${(err as Error).message}`);
  }
}

function go(view: URLSearchParams): void {
  sessionStorage.setItem(KEY_STORAGE, keyInput.value.trim());
  const hash = `#${view}`;
  // The same hash again fires no hashchange: run the view ourselves then.
  if (location.hash === hash) void showView();
  else location.hash = hash;
}

searchForm.addEventListener('submit', (event) => {
  event.preventDefault();
  go(searchParams());
});
// The browser refuses a field out of its bounds (a radius of 500) before any call: say which, in
// place of an earlier answer's error, which would otherwise seem to be about this search.
searchForm.addEventListener(
  'invalid',
  (event) => {
    const input = event.target as HTMLInputElement;
    if (searchForm.querySelector(':invalid') !== input) return;
    statusLine.textContent = '';
    showError(`${input.labels?.[0]?.firstChild?.textContent?.trim() ?? input.id}: ${input.validationMessage}`);
  },
  true,
);
networkForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (networkSelect.value) go(new URLSearchParams({ carrier: networkSelect.value }));
});
networkSelect.addEventListener('focus', () => void listCarriers().catch((err) => showError(err instanceof ApiError ? err.message : String(err))));
window.addEventListener('hashchange', () => void showView());

keyInput.value = sessionStorage.getItem(KEY_STORAGE) ?? '';
void drawBasemap().catch((err) => showError(`The basemap could not be loaded: ${(err as Error).message}`));
void showView();
