// Translations: one JSON file per language under /static/i18n/ (and each game's own, in its folder), chosen
// from the browser's languages, switchable, remembered in localStorage.

import { h, $$ } from './dom.js';
import { games, gameFile } from './catalogue.js';

export const LANGS = { en: 'English', hu: 'Magyar', ja: '日本語' };
const KEY = 'gemtable.lang';
let dict = {};
let lang = 'en';
let plural = new Intl.PluralRules('en');
const listeners = [];
let only = null;
const extras = new Set();
/** Shared text files a module asked for (``loadTexts``): loaded again with every language. */
/** The games whose texts are loaded: null for every game (the start and rules pages); on a table's pages,
 *  the table's game alone (``useGame``), so a phone does not carry every game's words. */

export function pickLang() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* private mode */ }
  if (saved && saved in LANGS) return saved;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (base in LANGS) return base;
  }
  return 'en';
}

export function currentLang() {
  return lang;
}

/** The games' own texts in one language: every file their manifests name (of the games in use), merged. */
async function gameTexts(code) {
  const stems = (await games()).filter((game) => only === null || only.has(game.name))
    .flatMap((game) => game.translations || []).filter(gameFile);
  return Promise.all(stems.map((stem) => fetch(`${stem}.${code}.json`)
    .then((res) => (res.ok ? res.json() : {})).catch(() => ({}))));
}

function extraTexts(stem, code) {
  return fetch(`${gameFile(stem) ? stem : `/static/i18n/${stem}`}.${code}.json`).then((res) => (res.ok ? res.json() : {})).catch(() => ({}));
}

export async function loadLang(code) {
  const [shared, ...own] = await Promise.all([fetch(`/static/i18n/${code}.json`).then((res) => res.json()),
    ...await gameTexts(code), ...[...extras].map((stem) => extraTexts(stem, code))]);
  dict = Object.assign({}, shared, ...own);
  lang = code;
  plural = new Intl.PluralRules(code);
  document.documentElement.lang = code;
  applyStatic();
  for (const fn of listeners) fn(code);
}

/** Start: load the browser's (or the remembered) language, with every game's texts, or (``forGames``, a list
 *  of names: a table's pages, which add their game with ``useGame``) only those games'. */
export function initLang(forGames = null) {
  only = forGames === null ? null : new Set(forGames);
  return loadLang(pickLang());
}

/** The texts of /static/i18n/STEM.LANG.json (or a game's: /games/NAME/STEM) too, from now on (a module loaded
 *  on demand brings its words: story.js the notices', settings-form.js the start page's and the host's sheet's:
 *  forms.LANG.json). */
export async function loadTexts(stem) {
  if (extras.has(stem)) return;
  extras.add(stem);
  Object.assign(dict, await extraTexts(stem, lang));
  applyStatic();
}

/** The texts of game ``name`` too, from now on (and in every language switched to). */
export async function useGame(name) {
  if (only === null || only.has(name)) return;
  only.add(name);
  const game = (await games()).find((g) => g.name === name);
  const stems = (game ? game.translations || [] : []).filter(gameFile);
  const own = await Promise.all(stems.map((stem) => fetch(`${stem}.${lang}.json`)
    .then((res) => (res.ok ? res.json() : {})).catch(() => ({}))));
  Object.assign(dict, ...own);
  applyStatic();
}

export function onLang(fn) {
  listeners.push(fn);
}

/** The text for key, with {name} placeholders filled; {n} picks the plural form. */
export function t(key, vars = {}) {
  let text = dict[key];
  if (text === undefined) return key;
  if (typeof text === 'object') text = text[plural.select(Number(vars.n ?? 0))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

export function has(key) {
  return key in dict;
}

/** Fill every element marked data-i18n (text) or data-i18n-ph / -label / -title / -alt (attributes). */
export function applyStatic(root = document) {
  for (const el of $$('[data-i18n]', root)) el.textContent = t(el.dataset.i18n);
  const attrs = { i18nPh: 'placeholder', i18nLabel: 'aria-label', i18nTitle: 'title', i18nAlt: 'alt' };
  for (const [data, attr] of Object.entries(attrs)) {
    const sel = '[data-' + data.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()) + ']';
    for (const el of $$(sel, root)) el.setAttribute(attr, t(el.dataset[data]));
  }
  const title = document.body?.dataset.title;
  if (title && has(title)) document.title = t(title);
}

/** A visible language switch (a select showing each language in its own name). */
export function langSwitch() {
  const select = h('select', { class: 'lang', 'aria-label': 'Language / Nyelv / 言語', id: 'lang' },
    Object.entries(LANGS).map(([code, name]) => h('option', { value: code, text: name })));
  select.value = lang;
  select.addEventListener('change', async () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* private mode */ }
    await loadLang(select.value);
  });
  onLang((code) => { select.value = code; });
  return select;
}

/** A person's name as shown. A bot has a name of its own (its strategy is shown beside it); a bot
 *  from before bots had names is called by its strategy, in the page's language. */
export function personName(p) {
  if (p.bot && p.name === p.bot && has('bot.' + p.bot)) return t('bot.' + p.bot);
  return p.name;
}

/** A number formatted for the current language. */
export function num(n) {
  return new Intl.NumberFormat(lang).format(n);
}
