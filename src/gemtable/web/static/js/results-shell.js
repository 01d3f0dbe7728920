// The results' frame on the phone and the TV (table.js loads it with a table's first results): the game's record
// (who left, which seats a bot played, its story), the game module's results, Play again or who will start the
// next game, the host's buttons and the link to the results page.

import { $, put, show } from './dom.js';
import { t, has, personName } from './i18n.js';
import { bansList, hostButtons } from './host.js';

export function renderResults(app, v, { story, needStory, needed, render }) {
  const table = app.table;
  const record = loadRecord(app, table.game_number, needStory, render);
  app.game.renderResults($('#results-body'), {
    state: table.state, names: v.names, rules: table.state?.rules, scores: table.state?.scores,
    winners: table.state?.winners, players: table.state?.players, number: table.game_number,
    left: record?.left || {}, standIns: record?.stand_ins || {}, ended: table.ended || record?.ended || null,
    heading: v.heading,
  }, app.ui);
  if (story()) story().renderStory($('#results-story'), record?.history, app.game);
  const isHost = Boolean(table.me && table.me.host);
  const seated = table.people.filter((p) => p.chair !== null && p.status !== 'away').length;
  const enough = seated >= needed(app);
  const again = $('#again');
  if (again) {
    show(again, isHost && enough && !table.countdown);
    again.dataset.i18n = table.readying && has('ready.anyway') ? 'ready.anyway' : 'results.again';  // (or anyway)
    again.textContent = t(again.dataset.i18n);
    const hint = $('#again-hint');
    if (hint) {
      show(hint, isHost && !enough);
      put(hint, t('lobby.need', { n: needed(app) }));
    }
  }
  const more = $('#results-host');
  if (more) put(more, hostButtons(app), bansList(app));
  const host = table.people.find((p) => p.id === table.host);
  const wait = $('#again-wait');
  if (wait) {
    show(wait, !isHost && Boolean(host) && !table.countdown && !table.readying);  // (the host asked: not waiting)
    put(wait, host ? t('results.wait_host', { name: personName(host) }) : '');
  }
  const link = $('#results-link');
  if (link) link.href = `/t/${app.code}/results/${table.game_number}`;
  const night = $('#night-link');
  if (night) night.href = `/t/${app.code}/night`;
}

/** A finished game's record (who left, which seats a bot played, its story), fetched once per game. */
function loadRecord(app, number, needStory, render) {
  if (!number) return null;
  const kept = app.records[number];
  if (kept !== undefined) return kept === 'loading' ? null : kept;
  app.records[number] = 'loading';
  fetch(`/api/tables/${app.code}/games/${number}`).then((r) => (r.ok ? r.json() : null)).catch(() => null)
    .then(async (record) => {
      app.records[number] = record;
      if (record && (record.history || []).length) await needStory();
      if (record) render(app);
    });
  return null;
}
