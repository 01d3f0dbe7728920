// What the host changes about who plays and what is played, in the host's sheet (host-sheet.js imports it, so it
// loads with the sheet and a guest's phone never loads it; its words are i18n/host-game.LANG.json):
//
// - **Switch the game** between games: the settings sheet's first field is the game. Another game picked there
//   draws the sheet again for that game (its presets, options and clock, from its manifest), says who will watch
//   (people beyond its chairs) and that the bots leave, and its button sends `settings` with `game`. The same code,
//   the same people, the TV stays paired: every screen follows the new game's state.
// - **A bot in an empty chair during a game**: the tools' "Add a bot" (the lobby has its own, above its list). In a
//   game whose seats belong to players (the expedition) it walks in at the next round; in one whose seats belong
//   to chairs (Booty Hunter's colours) it takes the free seat at once. The game module words that
//   (`words['midgame.bot_hint']`).

import { h, $ } from './dom.js';
import { t, has, loadTexts, personName, useGame } from './i18n.js';

await loadTexts('host-game');

const label = (key, fallback) => (has(key) ? t(key) : fallback);
const title = (game) => label(`game.${game.name}`, game.title);

/** A table word, as the game module words it (table.js's ``word``). */
function word(app, key, vars) {
  return t((app.game && app.game.words && app.game.words[key]) || key, vars);
}

/** The settings a switch to ``game`` starts from, as the server makes them (gemtable.table.settings.revised):
 *  its first preset, that preset's options, its default clock; the table's other settings kept. */
export function switched(game, settings) {
  const preset = game.presets[0];
  return { ...settings, preset: preset.name, rules: { ...preset.options }, seconds: game.seconds.default };
}

/** The settings form's first field: the game (``name``: the one the form is drawn for). Picking another calls
 *  ``pick(name)`` once its words are here; under it, what a switch does to the people at the table. */
export function gameField(app, name, pick) {
  const table = app.table;
  const games = app.catalogue?.games || [];
  const select = h('select', { id: 'set-game', 'aria-describedby': 'set-game-hint' },
    games.map((g) => h('option', { value: g.name, text: title(g) })));
  select.value = name;
  // Every game's name in the page's language (a table's page loads its own game's words only).
  Promise.all(games.map((g) => useGame(g.name))).then(() => {
    for (const option of select.options) option.textContent = title(games.find((g) => g.name === option.value));
  }).catch(() => {});
  select.addEventListener('change', () => {
    const chosen = select.value;
    useGame(chosen).catch(() => {}).then(() => pick(chosen));
  });
  const game = games.find((g) => g.name === name);
  const lines = [];
  if (game && name !== table.game) {
    // As the server seats them: a person keeps a chair the new game has; the others, and the queue, take the
    // chairs left (the bots' too) in the order they came (their ids), and the rest watch.
    const chairs = game.players[1];
    const people = table.people.filter((p) => !p.bot && p.status !== 'gone');
    const kept = people.filter((p) => p.chair !== null && p.chair < chairs).length;
    const waiting = people.filter((p) => p.chair === null ? p.status === 'watching' : p.chair >= chairs)
      .sort((a, b) => a.id - b.id);
    const watch = waiting.slice(Math.max(0, chairs - kept));
    lines.push(t('switch.same'));
    if (watch.length) {
      lines.push(t('switch.watch', { game: title(game), chairs, names: watch.map(personName).join(', '),
        n: watch.length }));
    }
    if (table.people.some((p) => p.bot && p.status !== 'gone')) lines.push(t('switch.bots'));
  }
  return [h('label', { for: 'set-game', text: t('switch.game') }), select,
    h('p', { class: 'hint', id: 'set-game-hint', text: lines.join(' ') })];
}

/** What the settings form's button says: Save, or "Switch to Booty Hunter". */
export function saveText(app, name) {
  const game = app.catalogue?.games.find((g) => g.name === name);
  return name === app.table.game || !game ? t('host.save') : t('switch.go', { game: title(game) });
}

/** The tools' "Add a bot" during a game (drawn in place with the rest of the sheet: ``data-key``). */
export function botRow(app) {
  const table = app.table;
  const bots = app.catalogue?.games.find((g) => g.name === table.game)?.bots || [];
  if (!bots.length) return null;
  const free = table.chairs - table.people.filter((p) => p.chair !== null && p.status !== 'gone').length;
  const add = h('button', { type: 'button', class: 'btn', id: 'sheet-add-bot', 'aria-disabled': String(free <= 0),
    'aria-describedby': 'sheet-bot-hint', text: t('lobby.add_bot') });
  // (aria-disabled, not disabled: a full table must not drop the focus of the button just pressed)
  add.onclick = () => { if (free > 0) app.ui.send({ type: 'add_bot', bot: $('#sheet-bot-kind').value }); };
  return h('section', { class: 'host-bot', 'data-key': 'bot', 'aria-labelledby': 'sheet-bot-title' },
    h('h3', { id: 'sheet-bot-title', text: t('midgame.title') }),
    h('div', { class: 'row' },
      h('label', { for: 'sheet-bot-kind', class: 'sr-only', text: t('lobby.bot_kind') }),
      h('select', { id: 'sheet-bot-kind' }, bots.map((b) => h('option', { value: b, text: label(`bot.${b}`, b) }))),
      add),
    h('p', { class: 'hint', id: 'sheet-bot-hint', text: free > 0 ? word(app, 'midgame.bot_hint') : t('midgame.full') }));
}
