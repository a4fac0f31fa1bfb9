#!/usr/bin/env node
// starter-javascript: a small, stateful Zole bot for the zole-arena protocol, version 1.
//
// It keeps the deal's state from the arena's messages (newdeal, bid, card, trick) and answers
// every `go` with one of the answers in its `legal` field. Node.js >= 18, CommonJS, no packages.
//
// Where to make it stronger: look for the comments marked "STRONGER".
'use strict';

const readline = require('readline');

// Cards as the arena writes them: rank then suit, QC TD 9H.
// Trumps, strongest first; then the plain suits (the arena uses A T K 9 in C, S, H).
const TRUMPS = ['QC', 'QS', 'QH', 'QD', 'JC', 'JS', 'JH', 'JD', 'AD', 'TD', 'KD', '9D', '8D', '7D'];
const PLAIN_RANKS = 'ATK987';
const PLAIN_SUITS = 'CSH';
// One fixed order of all cards, strongest first: its index breaks every tie the same way.
const ORDER = TRUMPS.concat(...[...PLAIN_SUITS].map((s) => [...PLAIN_RANKS].map((r) => r + s)));
const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2 };

const isTrump = (c) => TRUMPS.includes(c);
const points = (c) => POINTS[c[0]] || 0;
// Higher is stronger (an unknown card is the weakest).
const power = (c) => (ORDER.includes(c) ? ORDER.length - ORDER.indexOf(c) : 0);
// What a card follows: 'T' for any trump, else its plain suit.
const category = (c) => (isTrump(c) ? 'T' : c[1]);
const splitList = (value) => (value === undefined || value === '-' || value === '' ? [] : value.split(','));

// Does card c beat the card `best` now winning a trick whose led category is `led`?
function beats(c, best, led) {
  if (isTrump(c)) return !isTrump(best) || power(c) > power(best);
  return !isTrump(best) && category(c) === led && power(c) > power(best);
}

// The [seat, card] now winning a trick given as a list of [seat, card].
function winning(trick) {
  const led = category(trick[0][1]);
  let best = trick[0];
  for (const play of trick.slice(1)) {
    if (beats(play[1], best[1], led)) best = play;
  }
  return best;
}

// The first card with the smallest key; keys are arrays compared item by item.
function minBy(cards, key) {
  let best = null;
  let bestKey = null;
  for (const c of cards) {
    const k = key(c);
    if (best === null || compareKeys(k, bestKey) < 0) [best, bestKey] = [c, k];
  }
  return best;
}
function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}
const weakest = (cards) => minBy(cards, (c) => [power(c)]);
const strongest = (cards) => minBy(cards, (c) => [-power(c)]);

// Everything this seat has seen of the current deal.
class Deal {
  constructor(fields) {
    this.seat = Number(fields.seat || 0);
    this.allpass = fields.allpass || 'table'; // table or pule
    this.hand = new Set(splitList(fields.hand));
    this.bids = []; // [seat, bid] in order
    this.contract = null; // take, zole, smallzole, table, pule; null while bidding
    this.soloist = null;
    this.played = []; // every card played this deal, in order
    this.trick = []; // [seat, card] of the trick in progress
    this.buried = new Set(); // our buried cards, when we are a take soloist
  }

  onBid(seat, bid) {
    this.bids.push([seat, bid]);
    if (bid !== 'pass' && this.contract === null) {
      this.contract = bid;
      this.soloist = seat;
    } else if (this.bids.length === 3 && this.contract === null) {
      this.contract = this.allpass;
    }
  }

  onCard(seat, c) {
    this.played.push(c);
    this.trick.push([seat, c]);
    if (seat === this.seat) this.hand.delete(c);
  }

  onTrick() {
    this.trick = [];
  }

  // True if `seat` plays on our side (never in a table game, never for the soloist).
  partner(seat) {
    if (!['take', 'zole', 'smallzole'].includes(this.contract) || seat === this.seat) return false;
    return this.soloist !== this.seat && seat !== this.soloist;
  }
}

// ---------------------------------------------------------------- decisions

function decideBid(deal, legal) {
  const trumps = [...deal.hand].filter(isTrump);
  const t = trumps.length;
  const q = trumps.filter((c) => c[0] === 'Q').length;
  // STRONGER: count sure tricks, aces and voids; weigh the score and the pules.
  if (legal.includes('zole') && (t >= 7 || (t >= 6 && q >= 3))) return 'zole';
  if (legal.includes('take') && (t >= 6 || (t >= 5 && q >= 2))) return 'take';
  return legal.includes('pass') ? 'pass' : legal[0];
}

// Bury the two plain cards worth most (shorter suit first); low trumps fill in.
function decideBury(deal, legal) {
  const plain = legal.filter((c) => !isTrump(c));
  const length = (s) => plain.filter((c) => c[1] === s).length;
  const byKey = (key) => (a, b) => compareKeys(key(a), key(b));
  plain.sort(byKey((c) => [-points(c), length(c[1]), -power(c)]));
  const trumps = legal.filter(isTrump).sort(byKey((c) => [power(c)]));
  // STRONGER: keep an ace that wins a trick by itself; void a suit to ruff it later.
  return plain.concat(trumps).slice(0, 2);
}

function decideLead(deal, legal) {
  if (deal.contract === 'table') return weakest(legal);
  if (deal.soloist === deal.seat) {
    const trumps = legal.filter(isTrump);
    if (trumps.length > 0) {
      const top = strongest(trumps);
      const out = TRUMPS.filter((c) => !deal.played.includes(c) && !deal.hand.has(c) && !deal.buried.has(c));
      if (out.every((c) => power(top) > power(c))) return top; // it wins for sure
      return weakest(trumps);
    }
    // STRONGER: lead a suit a defender is known to be void in only when it pays.
    return minBy(legal, (c) => [-points(c), -power(c)]);
  }
  const aces = legal.filter((c) => c[0] === 'A' && !isTrump(c));
  if (aces.length > 0) return strongest(aces);
  // STRONGER: lead through the soloist into a suit the partner is void in.
  return minBy(legal, (c) => [points(c), power(c)]);
}

function decideFollow(deal, legal) {
  const led = category(deal.trick[0][1]);
  const [winSeat, winCard] = winning(deal.trick);
  const winners = legal.filter((c) => beats(c, winCard, led));
  if (deal.contract === 'table') {
    const losers = legal.filter((c) => !winners.includes(c));
    // STRONGER: the third player sees the whole trick; an early player only guesses.
    return losers.length > 0 ? strongest(losers) : weakest(legal);
  }
  if (deal.partner(winSeat) && deal.trick.length === 2) {
    // Our side wins and we play last: add as many points as we can.
    return minBy(legal, (c) => [-points(c), power(c)]);
  }
  if (winners.length > 0) return minBy(winners, (c) => [points(c), power(c)]);
  // STRONGER: as second player, give points when the partner plays last and can win.
  return minBy(legal, (c) => [points(c), power(c)]);
}

function decide(deal, fields) {
  const legal = splitList(fields.legal);
  if (fields.phase === 'bid') return decideBid(deal, legal);
  if (fields.phase === 'bury') {
    deal.hand = new Set(legal); // our 8 cards and the talon
    const bury = decideBury(deal, legal);
    deal.buried = new Set(bury);
    for (const c of bury) deal.hand.delete(c);
    return bury.join(' ');
  }
  // Play. Trust `legal` over our own state: a restarted soloist did not see its talon.
  for (const c of legal) deal.hand.add(c);
  for (const c of splitList(fields.buried)) deal.buried.add(c);
  for (const c of deal.buried) deal.hand.delete(c);
  if (deal.contract === null && fields.contract && fields.contract !== '-') {
    deal.contract = fields.contract; // should not happen: the bids tell it
    deal.soloist = fields.soloist === '-' ? null : Number(fields.soloist);
  }
  const choice = deal.trick.length > 0 ? decideFollow(deal, legal) : decideLead(deal, legal);
  return legal.includes(choice) ? choice : legal[0];
}

// ---------------------------------------------------------------- protocol

// Each write goes straight to the pipe (no buffer to flush); on a pipe it may still be
// pending when the program ends, so we exit only once stdout has drained (see finish).
const send = (line) => process.stdout.write(line + '\n');

const toFields = (words) => {
  const fields = {};
  for (let i = 0; i + 1 < words.length; i += 2) fields[words[i]] = words[i + 1];
  return fields;
};

let deal = null;
let finished = false;

function finish() {
  if (finished) return;
  finished = true;
  rl.close();
  process.stdout.write('', () => process.exit(0)); // called once everything before is written
}

function handle(line) {
  const words = line.trim().split(/\s+/);
  const [cmd, ...args] = words;
  let fields = {};
  try {
    if (cmd === 'zole') {
      send('id name starter-javascript');
      send('id author zole-arena starter');
      send('zoleok 1');
    } else if (cmd === 'isready') {
      send('readyok');
    } else if (cmd === 'newdeal') {
      deal = new Deal(toFields(args)); // a new deal (deal 1 may start a new match): start over
    } else if (cmd === 'bid' && deal && args.length >= 2) {
      deal.onBid(Number(args[0]), args[1]);
    } else if (cmd === 'card' && deal && args.length >= 2) {
      deal.onCard(Number(args[0]), args[1]);
    } else if (cmd === 'trick' && deal) {
      deal.onTrick();
    } else if (cmd === 'go') {
      fields = toFields(args);
      if (deal === null) deal = new Deal(fields); // should not happen: newdeal comes first
      send(`action ${fields.id} ${decide(deal, fields)}`);
    } else if (cmd === 'quit') {
      finish();
    }
    // Anything else (setoption, result, unknown lines, empty lines) needs no answer.
  } catch (error) {
    // Never die on one odd line; say why on stderr (never on stdout).
    process.stderr.write(`starter-javascript: ${error} on: ${line.trim()}\n`);
    if (cmd === 'go') {
      const legal = splitList(fields.legal);
      send(`action ${fields.id} ${fields.phase === 'bury' ? legal.slice(0, 2).join(' ') : legal[0]}`);
    }
  }
}

// Line by line until EOF (or quit).
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!finished) handle(line);
});
rl.on('close', finish);
