// The report's script: sortable tables, the deal list with its filters, and the deal viewer.
// It reads the data the page embeds (#report-data); every name and message from the logs is
// put in the page as text (textContent), never as markup.
"use strict";
(() => {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const F = {};
  D.fields.forEach((name, i) => { F[name] = i; });
  const PAGE = 50;
  const RED = { H: true, D: true };

  // -- small helpers ------------------------------------------------------------------------

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const signed = (n) => (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n);
  const cardIndex = (letter) => letter.charCodeAt(0) - 97;
  const lettersOf = (text) => Array.from(text);
  const botName = (deal, seat) => D.bots[deal[F.players][seat]];
  // A table of four: the deal's own seats 0, 1, 2 are the three who play; the fourth player
  // dealt and sat it out ("out"). Null for a deal of three players.
  function fourOf(deal) {
    const four = deal[F.four];
    return four && typeof four === "object" && Array.isArray(four.seats) && Array.isArray(four.scores) &&
      Array.isArray(four.totals) && Array.isArray(four.at) && Number.isInteger(four.out) ? four : null;
  }
  function tableName(deal, tableSeat) {
    // The bot at a table seat of a table of four (pules name their owners by table seat).
    const four = fourOf(deal);
    const name = four ? D.bots[four.seats[tableSeat]] : undefined;
    return name === undefined ? `table seat ${tableSeat}` : name;
  }
  const sitterName = (deal) => tableName(deal, fourOf(deal).out);
  const sitterScore = (deal) => fourOf(deal).scores[fourOf(deal).out];

  function card(letter, extra) {
    const info = D.cards[cardIndex(letter)];
    return el("span", {
      class: "card " + (RED[info.suit] ? "red" : "black") + (info.trump ? " trump" : "") +
        (extra ? " " + extra : ""),
      "data-card": info.name,
      title: info.name + (info.points ? ", " + info.points + " points" : ""),
      text: info.symbol,
    });
  }
  const back = () => el("span", { class: "card back", "aria-label": "hidden card", text: "\u00a0" });
  const byStrength = (letters) => letters.slice().sort();

  // -- sortable tables ----------------------------------------------------------------------

  function sortKey(cell) {
    const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent;
    const number = Number(raw);
    return raw !== "" && Number.isFinite(number) ? number : raw;
  }
  for (const table of document.querySelectorAll("table.sortable")) {
    table.querySelectorAll("thead th").forEach((th, column) => {
      th.classList.add("sorter");
      th.tabIndex = 0;
      const sort = () => {
        const body = table.tBodies[0];
        const rows = Array.from(body.rows);
        const numeric = rows.some((row) => typeof sortKey(row.cells[column]) === "number");
        const down = th.dataset.dir ? th.dataset.dir === "up" : numeric;
        table.querySelectorAll("thead th").forEach((other) => { delete other.dataset.dir; });
        th.dataset.dir = down ? "down" : "up";
        rows.sort((a, b) => {
          const x = sortKey(a.cells[column]);
          const y = sortKey(b.cells[column]);
          if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1; // n/a last
          const order = typeof x === "number" && typeof y === "number"
            ? x - y : String(x).localeCompare(String(y));
          return down ? -order : order;
        });
        body.append(...rows);
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); }
      });
    });
  }

  // -- what a deal was ----------------------------------------------------------------------

  function outcome(deal) {
    const contract = deal[F.contract];
    if (deal[F.forfeit] !== null) return "forfeit";
    if (contract === "table") return "table";
    if (contract === "pule" || contract === null) return "pule";
    return D.won_bands.includes(deal[F.band]) ? "won" : "lost";
  }
  function resultText(deal) {
    const kind = outcome(deal);
    if (kind === "forfeit") return "forfeited by " + botName(deal, deal[F.forfeit]);
    if (kind === "table") {
      const losers = [0, 1, 2].filter((seat) => deal[F.scores][seat] < 0);
      return "table game, lost by " + (losers.map((s) => botName(deal, s)).join(", ") || "nobody");
    }
    if (kind === "pule") {
      // At a table of four an all-pass writes two common pules when none stands.
      const common = (pules) => (Array.isArray(pules) ? pules[0] : 0);
      const written = common(deal[F.pules_after]) - common(deal[F.pules_before]);
      return "all passed: " + (fourOf(deal) && written === 2 ? "two pules" : "a pule");
    }
    return botName(deal, deal[F.soloist]) + ": " + D.bands[deal[F.band]] +
      (deal[F.ended_early] ? " (stopped at the soloist's first trick)" : "");
  }
  const contractWord = (deal) => deal[F.contract] === null ? "\u2014" :
    (D.contract_words[deal[F.contract]] || deal[F.contract]);

  // -- the deal list ------------------------------------------------------------------------

  const state = { bot: "", contract: "", result: "", faults: false, table: "", page: 0 };
  let shown = D.deals.map((_, i) => i); // the filtered deals, in order
  const keyOf = (index) => D.tables[D.deals[index][F.table]].match + "-" + D.deals[index][F.deal];
  const BY_KEY = new Map(D.deals.map((_, i) => [keyOf(i), i]));

  function select(label, key, options) {
    const box = el("select", {
      "aria-label": label, id: "filter-" + key,
      onchange: (event) => { state[key] = event.target.value; state.page = 0; filter(); },
    }, options.map(([value, text]) => el("option", { value, text })));
    return el("label", {}, label + " ", box);
  }
  function tableLabel(index) {
    const table = D.tables[index];
    return D.logs.length > 1 ? "log " + (table.log + 1) + " \u00b7 " + table.label : table.label;
  }
  function buildFilters() {
    const contracts = Array.from(new Set(D.deals.map((d) => d[F.contract]).filter((c) => c)));
    const parts = [
      select("bot", "bot", [["", "any"], ...D.bots.map((name, i) => [String(i), name])]),
      select("contract", "contract", [["", "any"],
        ...D.contracts.filter((c) => contracts.includes(c)).map((c) => [c, D.contract_words[c] || c])]),
      select("result", "result", [["", "any"], ["won", "soloist won"], ["lost", "soloist lost"],
        ["table", "table game"], ["pule", "pule"], ["forfeit", "forfeited"]]),
    ];
    if (D.tables.length > 1) {
      const order = D.tables.map((_, i) => i).sort((a, b) =>
        tableLabel(a).localeCompare(tableLabel(b), undefined, { numeric: true }));
      parts.push(select("match", "table", [["", "any"], ...order.map((i) => [String(i), tableLabel(i)])]));
    }
    parts.push(el("label", {}, el("input", {
      type: "checkbox", id: "filter-faults",
      onchange: (event) => { state.faults = event.target.checked; state.page = 0; filter(); },
    }), " with faults only"));
    const jump = el("input", { type: "number", id: "goto-deal", min: "1", max: String(D.deals.length),
      placeholder: "1\u2013" + D.deals.length, "aria-label": "go to deal number" });
    const go = () => {
      const number = Number(jump.value);
      if (Number.isInteger(number) && number >= 1 && number <= D.deals.length) {
        jump.setCustomValidity("");
        openDeal(number - 1, undefined, 0, true);
      } else {
        jump.setCustomValidity(`no deal ${jump.value}: 1 to ${D.deals.length}`);
        jump.reportValidity();
      }
    };
    jump.addEventListener("keydown", (event) => { if (event.key === "Enter") go(); });
    parts.push(el("label", {}, "go to deal ", jump, " ", el("button", { type: "button", onclick: go }, "open")));
    document.getElementById("filters").append(...parts);
  }
  function matches(deal) {
    if (state.bot !== "" && !deal[F.players].includes(Number(state.bot)) &&
        !(fourOf(deal) && fourOf(deal).seats[fourOf(deal).out] === Number(state.bot))) return false;
    if (state.contract !== "" && deal[F.contract] !== state.contract) return false;
    if (state.result !== "" && outcome(deal) !== state.result) return false;
    if (state.table !== "" && deal[F.table] !== Number(state.table)) return false;
    if (state.faults && deal[F.faults].length === 0) return false;
    return true;
  }
  function filter() {
    shown = [];
    D.deals.forEach((deal, i) => { if (matches(deal)) shown.push(i); });
    drawList();
    if (view.deal !== null) draw(); // its previous and next deals are of the new list
  }
  function neighbour(index, step) {
    // The deal before (step -1) or after (+1) ``index`` in the filtered list, even when
    // ``index`` itself is not in it; undefined at either end.
    let low = 0;
    let high = shown.length;
    while (low < high) { // the first position whose deal is not before ``index``
      const middle = (low + high) >> 1;
      if (shown[middle] < index) low = middle + 1; else high = middle;
    }
    if (step < 0) return low > 0 ? shown[low - 1] : undefined;
    const at = shown[low] === index ? low + 1 : low;
    return at < shown.length ? shown[at] : undefined;
  }
  function drawList() {
    const box = document.getElementById("dealist");
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    state.page = Math.max(0, Math.min(state.page, pages - 1));
    const first = state.page * PAGE;
    const several = D.tables.length > 1;
    const rows = shown.slice(first, first + PAGE).map((index) => {
      const deal = D.deals[index];
      const seats = [0, 1, 2].map((seat) => el("span", {
        class: seat === deal[F.soloist] ? "soloist" : "",
        text: botName(deal, seat),
      }));
      const four = fourOf(deal);
      const out = four ? [", ", el("span", { class: "sitter", text: "sits out: " + sitterName(deal) })] : null;
      return el("tr", {
        class: "deal-row" + (index === view.deal ? " open" : ""), tabIndex: 0,
        "data-deal": String(index + 1),
        onclick: () => openDeal(index, undefined, 0, true),
        onkeydown: (event) => { if (event.key === "Enter") openDeal(index, undefined, 0, true); },
      },
      el("td", { class: "num", text: String(index + 1) }),
      several ? el("td", { text: tableLabel(deal[F.table]) }) : null,
      el("td", { class: "num", text: String(deal[F.deal]) }),
      el("td", { class: "seats" }, seats[0], ", ", seats[1], ", ", seats[2], out),
      el("td", { text: contractWord(deal) }),
      el("td", { text: resultText(deal) }),
      el("td", { class: "num", text: deal[F.scores].map(signed).join(" ") +
        (four ? " \u00b7 " + signed(sitterScore(deal)) : "") }),
      el("td", { class: deal[F.faults].length ? "bad num" : "num", text: String(deal[F.faults].length) }));
    });
    const head = el("tr", {}, [["#", "num"], several ? ["match", ""] : null, ["deal", "num"],
      [D.deals.some((d) => fourOf(d)) ? "seats 0, 1, 2 (soloist in bold), who sat out" : "seats 0, 1, 2 (soloist in bold)", ""], ["contract", ""], ["result", ""], ["scores" + (D.deals.some((d) => fourOf(d)) ? " (\u00b7 who sat out)" : ""), "num"],
      ["faults", "num"]].filter((h) => h !== null).map(([h, cls]) => el("th", { class: cls, text: h })));
    const pageBox = el("input", { type: "number", id: "page-number", min: "1", max: String(pages),
      value: String(state.page + 1), "aria-label": "page",
      onchange: (event) => { state.page = Math.floor(Number(event.target.value)) - 1 || 0; drawList(); } });
    const pager = el("div", { class: "pager" },
      el("button", { type: "button", id: "page-prev", disabled: state.page === 0,
        onclick: () => { state.page -= 1; drawList(); } }, "\u2039 previous"),
      el("span", { id: "page-info", text: shown.length
        ? `deals ${first + 1}\u2013${Math.min(first + PAGE, shown.length)} of ${shown.length}` +
          (shown.length !== D.deals.length ? ` (of ${D.deals.length} in all)` : "")
        : "no deal matches" }),
      el("button", { type: "button", id: "page-next", disabled: state.page >= pages - 1,
        onclick: () => { state.page += 1; drawList(); } }, "next \u203a"),
      pages > 1 ? el("label", {}, "page ", pageBox, ` of ${pages}`) : null);
    box.replaceChildren(pager, el("div", { class: "wide" },
      el("table", { class: "deals" }, el("thead", {}, head), el("tbody", {}, rows))));
  }

  // -- the deal viewer ----------------------------------------------------------------------

  // Steps: 0 as dealt; 1 the bidding done (and the bury); then one step per card played.
  const view = { deal: null, seat: "all", step: 0 };
  const lastStep = (deal) => 1 + deal[F.plays].length;

  function openDeal(index, seat, step, scroll) {
    const changed = index !== view.deal;
    view.deal = index;
    if (seat !== undefined) view.seat = seat;
    view.step = step === undefined ? 0 : step;
    writeHash(changed);
    // Show the page of the list that holds it, and the viewer itself.
    const position = shown.indexOf(index);
    if (position >= 0 && Math.floor(position / PAGE) !== state.page) {
      state.page = Math.floor(position / PAGE);
    }
    drawList();
    if (scroll) document.getElementById("viewer").scrollIntoView({ block: "start" });
  }
  function writeHash(newEntry) {
    const parts = ["deal=" + encodeURIComponent(keyOf(view.deal))]; // readHash decodes it
    if (view.seat !== "all") parts.push("seat=" + view.seat);
    if (view.step) parts.push("step=" + view.step);
    const hash = "#" + parts.join("&");
    // Opening a deal is a new entry in the history (the back button goes back to the one
    // before); a step or a seat replaces it. Either way the view is drawn now, so a key press
    // shows its step before the next one is read.
    if (location.hash !== hash) history[newEntry ? "pushState" : "replaceState"](null, "", hash);
    draw();
  }
  function readHash() {
    const found = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const at = part.indexOf("=");
      if (at <= 0) continue;
      try {
        found[part.slice(0, at)] = decodeURIComponent(part.slice(at + 1));
      } catch (error) { // a malformed %-escape: that part is left out
      }
    }
    let index = found.deal === undefined ? undefined : BY_KEY.get(found.deal);
    if (index === undefined && /^[0-9]+$/.test(found.deal || "")) index = Number(found.deal) - 1;
    if (index === undefined || !(index >= 0 && index < D.deals.length)) {
      if (view.deal !== null) { view.deal = null; draw(); drawList(); }
      const notice = document.getElementById("deal-notice");
      notice.textContent = found.deal === undefined ? "" :
        `No deal "${found.deal}" in this report: a link names a deal by its match and number, ` +
        `or by its place here, 1 to ${D.deals.length}.`;
      notice.hidden = found.deal === undefined;
      if (found.deal !== undefined) notice.scrollIntoView({ block: "center" });
      return false;
    }
    document.getElementById("deal-notice").hidden = true;
    const changed = index !== view.deal;
    view.deal = index;
    view.seat = ["0", "1", "2"].includes(found.seat) ? Number(found.seat)
      : found.seat === "out" && fourOf(D.deals[index]) ? "out" : "all";
    const step = Number(found.step || 0);
    view.step = Number.isInteger(step) ? Math.max(0, Math.min(step, lastStep(D.deals[index]))) : 0;
    writeHash(false); // the address in its own form: the deal by match and number, the rest as shown
    if (changed) {
      drawList();
      document.getElementById("viewer").scrollIntoView({ block: "start" });
    }
    return true;
  }

  function hiddenFrom(deal, what) {
    // What the viewing seat could not see: another seat's hand; the talon and the bury
    // unless it took the talon (and only once it had picked it up).
    if (view.seat === "all") return false;
    if (what === "talon") {
      return !(deal[F.contract] === "take" && deal[F.soloist] === view.seat && view.step >= 1);
    }
    return what !== view.seat;
  }
  const played = (step) => Math.max(0, step - 1); // cards played by this step
  function handAt(deal, seat, step) {
    const cards = lettersOf(deal[F.cards]);
    let hand = cards.slice(seat * 8, seat * 8 + 8);
    if (step >= 1 && deal[F.contract] === "take" && deal[F.soloist] === seat) {
      const buried = lettersOf(deal[F.buried]);
      hand = hand.concat(cards.slice(24, 26)).filter((c) => !buried.includes(c));
    }
    const gone = lettersOf(deal[F.plays]).slice(0, played(step));
    return byStrength(hand.filter((c) => !gone.includes(c)));
  }
  function tricksOf(deal) {
    const plays = lettersOf(deal[F.plays]);
    const auto = new Set(deal[F.auto] ? deal[F.auto].plays : []);
    const tricks = [];
    let leader = deal[F.leader];
    for (let t = 0; t * 3 < plays.length; t += 1) {
      const cards = plays.slice(t * 3, t * 3 + 3);
      const winner = t < deal[F.winners].length ? Number(deal[F.winners][t]) : null;
      const points = cards.reduce((sum, c) => sum + D.cards[cardIndex(c)].points, 0);
      tricks.push({ leader, cards, winner, points, auto: cards.map((_, i) => auto.has(t * 3 + i)) });
      if (winner !== null) leader = winner;
    }
    return tricks;
  }
  function seatLabel(deal, seat, step) {
    const marks = [];
    // At a table of four the dealer is the one who sits out, not a seat of the three.
    if (seat === deal[F.dealer] && !fourOf(deal)) marks.push("dealer");
    if (seat === (deal[F.dealer] + 1) % 3) marks.push("forehand");
    if (step >= 1 && seat === deal[F.soloist]) marks.push("soloist");
    return `seat ${seat}: ${botName(deal, seat)}` + (marks.length ? ` (${marks.join(", ")})` : "");
  }
  const ARENA = "played by the arena for the faulted bot";
  function puleText(deal, pules) {
    // [common, [owner seats]] as people say it; null: none.
    if (!pules) return "none";
    const [common, personal] = pules;
    const parts = [];
    if (common) parts.push(`${common} common`);
    // At a table of four the owners are table seats (the one who sat out may own one too).
    const owner = (seat) => (fourOf(deal) ? tableName(deal, seat) : botName(deal, seat));
    if (personal.length) parts.push("personal: " + personal.map(owner).join(", "));
    return parts.join(", ") || "none";
  }

  // -- the open-card analysis (zole-arena analyze) -----------------------------------------

  // What each mark means: "?!" inaccuracy, "?" mistake, "??" blunder.
  const MARK_WORDS = D.marks && typeof D.marks === "object" ? D.marks : {};
  const ANALYSED = Number.isInteger(D.analysed) && D.analysed > 0;

  function decisionOf(raw) {
    // One decision as the payload writes it: its value when it was the best, else
    // [value, loss, mark, the best actions]; undefined for anything else.
    if (Number.isSafeInteger(raw)) return { value: raw, loss: 0, best: raw, mark: "", bestText: "" };
    if (!Array.isArray(raw) || raw.length !== 4) return undefined;
    const [value, loss, mark, bestText] = raw;
    if (!Number.isSafeInteger(value) || !Number.isSafeInteger(loss) || loss < 0) return undefined;
    return {
      value, loss, best: value + loss,
      mark: typeof mark === "string" && Object.prototype.hasOwnProperty.call(MARK_WORDS, mark) ? mark : "",
      bestText: typeof bestText === "string" ? bestText : "",
    };
  }
  function analysisOf(deal) {
    // The deal's analysed decisions by where they are shown, {bid, bury, play: Map from the
    // place k (the k-th bid, the bury 0, the k-th card played) to {value, loss, best, mark,
    // bestText}, note}; null: the deal has no analysis. The data came from an analysis file
    // (read as untrusted, and checked to fit the deal): anything that is not what the report
    // writes is left out, never shown as it is.
    const raw = deal[F.analysis];
    if (!Array.isArray(raw) || raw.length !== 4) return null;
    const places = (list) => {
      const map = new Map();
      (Array.isArray(list) ? list : []).forEach((entry, k) => {
        const decision = decisionOf(entry);
        if (decision) map.set(k, decision);
      });
      return map;
    };
    return { note: typeof raw[0] === "string" ? raw[0] : null,
      bid: places(raw[1]), bury: places([raw[2]]), play: places(raw[3]) };
  }
  // The analysis is open-card: as seen by a seat, only that seat's own decisions show.
  const analysisShown = (seat) => view.seat === "all" || view.seat === seat;
  function markOf(decision) {
    if (!decision || !decision.mark) return null;
    return el("b", { class: "mark", title: MARK_WORDS[decision.mark] + ": lost " + decision.loss +
      " points with all cards open", text: decision.mark });
  }
  function valueText(decision) {
    // "−10, best J♣ / J♥ +8, loss 18" or "+8, the best"
    return signed(decision.value) + (decision.loss > 0
      ? `, best ${decision.bestText} ${signed(decision.best)}, loss ${decision.loss} `
      : ", the best");
  }
  function decisionLine(deal, seat, verb, action, decision, id) {
    return el("p", { class: "analysis", id },
      el("b", { text: botName(deal, seat) }), ` (seat ${seat}) ${verb} ${action}: ${valueText(decision)}`,
      markOf(decision));
  }
  const symbolsOf = (letters) => letters.map((c) => D.cards[cardIndex(c)].symbol).join(" ");
  function playSeat(tricks, k) {
    const trick = tricks[Math.floor(k / 3)];
    return (trick.leader + (k % 3)) % 3;
  }
  function analysisNow(deal, analysis, tricks, step) {
    // What the analysis says of the step: the card just played (from step 2 on).
    if (!ANALYSED || step < 2) return null;
    const k = played(step) - 1;
    const seat = playSeat(tricks, k);
    const letter = lettersOf(deal[F.plays])[k];
    const action = D.cards[cardIndex(letter)].symbol;
    if (!analysisShown(seat)) {
      return el("p", { class: "analysis note", id: "analysis",
        text: view.seat === "out" ? "open-card analysis: the one who sat out made no decision"
          : `open-card analysis: only seat ${view.seat}'s own decisions show as seen by it` });
    }
    if (analysis === null) {
      return el("p", { class: "analysis note", id: "analysis", text: "open-card analysis: none for this deal" });
    }
    const decision = analysis.play.get(k);
    if (decision) return decisionLine(deal, seat, "played", action, decision, "analysis");
    return el("p", { class: "analysis note", id: "analysis",
      text: `${botName(deal, seat)} (seat ${seat}) played ${action}: no decision to analyse (no other legal card, or the arena's move)` +
        (analysis.note !== null ? `; the analysis stops where ${analysis.note}` : "") });
  }
  function analysisSummary(deal, analysis, tricks) {
    // At the last step: every shown decision that lost points, each a link to its step.
    if (!ANALYSED) return null;
    if (analysis === null) {
      return el("p", { class: "note", id: "analysis-summary", text: "open-card analysis: none for this deal" });
    }
    const items = [];
    let count = 0;
    const add = (seat, verb, action, decision, step) => {
      if (!analysisShown(seat)) return;
      count += 1;
      if (decision.loss <= 0) return;
      items.push(el("li", {}, el("a", { href: "#", class: "step-link", "data-step": String(step),
        onclick: (event) => { event.preventDefault(); go(step); } }, `step ${step}`), ": ",
      el("b", { text: botName(deal, seat) }), ` ${verb} ${action}: ${valueText(decision)}`, markOf(decision)));
    };
    deal[F.bids].forEach(([seat, bid], k) => {
      const decision = analysis.bid.get(k);
      if (decision) add(seat, "bid", D.contract_words[bid] || bid, decision, 1);
    });
    const bury = analysis.bury.get(0);
    if (bury && deal[F.soloist] !== null) add(deal[F.soloist], "buried", symbolsOf(lettersOf(deal[F.buried])), bury, 1);
    const plays = lettersOf(deal[F.plays]);
    plays.forEach((letter, k) => {
      const decision = analysis.play.get(k);
      if (decision) add(playSeat(tricks, k), "played", D.cards[cardIndex(letter)].symbol, decision, k + 2);
    });
    const whose = view.seat === "all" ? "" : view.seat === "out" ? " of the one who sat out" : ` of seat ${view.seat}`;
    return el("div", { id: "analysis-summary" }, el("h4", { text: "open-card analysis" }),
      el("p", { text: `${count} decision${count === 1 ? "" : "s"}${whose}, ` +
        (items.length ? `${items.length} lost points with all cards open:` : "none lost points with all cards open") +
        (analysis.note !== null ? ` (analysed up to where ${analysis.note})` : "") }),
      items.length ? el("ol", {}, items) : null);
  }

  function draw() {
    const box = document.getElementById("viewer");
    if (view.deal === null) { box.hidden = true; box.replaceChildren(); return; }
    // The viewer is drawn anew: the control that had the focus gets it back.
    const focused = box.contains(document.activeElement) ? document.activeElement : null;
    const refocus = focused && (focused.id || (focused.name === "seat" ? "seat-" + focused.value : ""));
    const deal = D.deals[view.deal];
    const last = lastStep(deal);
    const tricks = tricksOf(deal);
    const step = view.step;
    const cardsPlayed = played(step);
    const before = neighbour(view.deal, -1);
    const after = neighbour(view.deal, +1);
    const auto = deal[F.auto] || { bids: [], bury: false, plays: [] };

    const title = el("h3", { id: "viewer-title" },
      `Deal ${view.deal + 1}: ${tableLabel(deal[F.table])}, deal ${deal[F.deal]}` +
      (deal[F.block] !== deal[F.deal] ? ` (block ${deal[F.block]})` : ""));
    const nav = el("div", { class: "dealnav" },
      el("button", { type: "button", id: "deal-prev", disabled: before === undefined,
        onclick: () => openDeal(before) }, "\u2039 previous deal"),
      el("a", { href: location.hash, id: "deal-link", text: "link to this view" }),
      el("button", { type: "button", id: "deal-next", disabled: after === undefined,
        onclick: () => openDeal(after) }, "next deal \u203a"),
      el("button", { type: "button", id: "deal-close", onclick: () => {
        history.replaceState(null, "", "#deals"); view.deal = null; draw(); drawList(); } }, "close"));

    const four = fourOf(deal);
    if (view.seat === "out" && !four) view.seat = "all"; // a deal of three has no one out
    // At a table of four the one who sat out may be chosen too: he saw nothing but the play.
    const seats = el("fieldset", { class: "seatpick", id: "seat-toggle" }, el("legend", { text: "as seen by" }),
      ["all", 0, 1, 2, ...(four ? ["out"] : [])].map((seat) => el("label", {},
        el("input", { type: "radio", name: "seat", id: "seat-" + seat, value: String(seat), checked: view.seat === seat,
          onchange: () => { view.seat = seat; writeHash(false); } }),
        seat === "all" ? " everyone (all cards open)" : seat === "out"
          ? ` ${sitterName(deal)}, who sat out (no hand: only the play)` : ` seat ${seat}: ${botName(deal, seat)}`)));

    const controls = el("div", { class: "steps" },
      el("button", { type: "button", id: "step-first", disabled: step === 0, onclick: () => go(0), title: "as dealt (Home)" }, "\u00ab"),
      el("button", { type: "button", id: "step-trick-back", disabled: step === 0, onclick: () => go(trickStep(deal, step, -1)), title: "a trick back (\u2191)" }, "\u25c0\u25c0"),
      el("button", { type: "button", id: "step-back", disabled: step === 0, onclick: () => go(step - 1), title: "a card back (\u2190)" }, "\u25c0"),
      el("span", { id: "step-info", text: `step ${step} of ${last}` }),
      el("button", { type: "button", id: "step-forward", disabled: step === last, onclick: () => go(step + 1), title: "a card on (\u2192)" }, "\u25b6"),
      el("button", { type: "button", id: "step-trick-forward", disabled: step === last, onclick: () => go(trickStep(deal, step, +1)), title: "a trick on (\u2193)" }, "\u25b6\u25b6"),
      el("button", { type: "button", id: "step-last", disabled: step === last, onclick: () => go(last), title: "the end (End)" }, "\u00bb"),
      el("span", { class: "note", text: "keys: \u2190 \u2192 a card, \u2191 \u2193 a trick, Home End; n p: next, previous deal. Trumps are underlined in gold." }));

    const analysis = analysisOf(deal);
    const bidDecision = (seat, i) => analysis && analysisShown(seat) ? analysis.bid.get(i) : undefined;
    const bids = deal[F.bids].map(([seat, bid], i) => el("li", {},
      el("b", { text: botName(deal, seat) }), ` (seat ${seat}): ${D.contract_words[bid] || bid}`,
      auto.bids.includes(i) ? el("span", { class: "auto", title: ARENA, text: " (arena)" }) : null,
      bidDecision(seat, i) ? el("span", { class: "analysis" }, " \u2014 " + valueText(bidDecision(seat, i)),
        markOf(bidDecision(seat, i))) : null));
    const buryDecision = analysis && deal[F.soloist] !== null && analysisShown(deal[F.soloist])
      ? analysis.bury.get(0) : undefined;
    const talonHidden = hiddenFrom(deal, "talon");
    const talon = lettersOf(deal[F.cards]).slice(24, 26);
    const buried = lettersOf(deal[F.buried]);
    const facts = el("div", { class: "facts" },
      el("div", {}, el("h4", { text: "bidding" }), step === 0
        ? el("p", { id: "bids", class: "note", text: "\u2192 for the bidding" })
        : [el("ol", { id: "bids" }, bids),
          el("p", {}, "contract: ", el("b", { id: "contract", text: contractWord(deal) }),
            deal[F.soloist] !== null ? ", soloist " + botName(deal, deal[F.soloist]) : "")]),
      el("div", {}, el("h4", { text: "talon" }), el("div", { id: "talon", class: "cards" },
        talonHidden ? talon.map(back) : talon.map((c) => card(c)))),
      buried.length && step >= 1 ? el("div", {}, el("h4", { text: "buried" + (auto.bury ? " (by the arena)" : "") }),
        el("div", { id: "buried", class: "cards" },
          talonHidden ? buried.map(back) : buried.map((c) => card(c))),
        buryDecision ? decisionLine(deal, deal[F.soloist], "buried",
          talonHidden ? "two cards" : symbolsOf(buried), buryDecision, "bury-analysis") : null) : null);

    const hands = el("div", { class: "hands", id: "hands" }, [0, 1, 2].map((seat) => {
      const hand = handAt(deal, seat, step);
      const hidden = hiddenFrom(deal, seat);
      return el("div", { class: "hand" + (seat === view.seat ? " me" : ""), id: "hand-" + seat, "data-hidden": hidden ? "yes" : "no" },
        el("div", { class: "who", text: seatLabel(deal, seat, step) }),
        el("div", { class: "cards" }, hidden ? hand.map(back) : hand.map((c) => card(c))));
    }), four ? el("div", { class: "hand sitter" + (view.seat === "out" ? " me" : ""), id: "hand-out" },
      el("div", { class: "who", text: `${sitterName(deal)} sits out (dealer)` }),
      el("div", { class: "cards note", text: "no hand: he dealt to the other three, and pays or collects as an opponent of the soloist" })) : null);

    // The trick on the table: the one the last card played went to.
    let trickBox;
    if (cardsPlayed > 0) {
      const t = Math.floor((cardsPlayed - 1) / 3);
      const trick = tricks[t];
      const count = cardsPlayed - t * 3;
      const complete = count === 3 && trick.winner !== null;
      trickBox = el("div", { class: "trick", id: "trick" },
        el("h4", { text: `trick ${t + 1} of ${tricks.length}` + (count < trick.cards.length || trick.winner !== null ? "" : " (not finished)") }),
        el("div", { class: "played" }, trick.cards.slice(0, count).map((c, i) => {
          const seat = (trick.leader + i) % 3;
          return el("div", { class: "play" + (complete && seat === trick.winner ? " winner" : ""), "data-seat": String(seat) },
            card(c), el("div", { class: "who", text: botName(deal, seat) + (i === 0 ? " (led)" : "") }),
            trick.auto[i] ? el("div", { class: "auto", title: ARENA, text: "arena" }) : null,
            analysis && analysisShown(seat) ? markOf(analysis.play.get(t * 3 + i)) : null);
        })),
        el("p", { id: "trick-winner" }, complete
          ? [el("b", { text: botName(deal, trick.winner) }), ` wins ${trick.points} points`]
          : count === trick.cards.length && trick.winner === null ? "the deal ended here" : "\u00a0"));
    } else {
      trickBox = el("div", { class: "trick", id: "trick" },
        el("h4", { text: step === 0 ? "as dealt" : deal[F.contract] === null
          ? "the bidding, cut off by a fault" : "after the bidding" }),
        el("p", { text: tricks.length ? "\u2192 to play the cards one by one" : "no cards were played" }));
    }

    const taken = [0, 0, 0];
    const won = [0, 0, 0];
    const trickRows = tricks.map((trick, t) => {
      const done = (t + 1) * 3 <= cardsPlayed && trick.winner !== null;
      if (done) { taken[trick.winner] += trick.points; won[trick.winner] += 1; }
      const current = cardsPlayed > t * 3 && cardsPlayed <= (t + 1) * 3;
      return el("tr", { class: (current ? "current" : "") + (done ? "" : " future") },
        el("td", { class: "num", text: String(t + 1) }),
        el("td", {}, done ? trick.cards.map((c, i) => [card(c),
          analysis && analysisShown((trick.leader + i) % 3) ? markOf(analysis.play.get(t * 3 + i)) : null,
          i < 2 ? " " : ""]) : "\u00a0"),
        el("td", { text: done ? botName(deal, trick.leader) : "" }),
        el("td", { text: done ? botName(deal, trick.winner) : "" }),
        el("td", { class: "num", text: done ? String(trick.points) : "" }));
    });
    const trickTable = tricks.length ? el("div", { class: "wide" }, el("table", { class: "tricks", id: "tricks" },
      el("thead", {}, el("tr", {}, [["#", "num"], ["cards (in order played)", ""], ["led", ""], ["won", ""], ["points", "num"]]
        .map(([h, cls]) => el("th", { class: cls, text: h })))),
      el("tbody", {}, trickRows))) : null;

    let end = null;
    if (step === last) {
      const faults = deal[F.faults].map((f) => {
        const [, seat, , kind, message] = D.faults[f];
        return el("li", {}, el("b", { text: kind }), ` ${botName(deal, seat)} (seat ${seat}): `, message);
      });
      end = el("div", { class: "end", id: "deal-end" },
        el("h4", { text: "result" }), el("p", { id: "result", text: resultText(deal) +
          soloistPoints(deal) }),
        el("div", { class: "wide" }, el("table", { class: "scores", id: "scores" },
          el("thead", {}, el("tr", {}, [["seat", "num"], ["bot", ""], ["tricks", "num"], ["card points", "num"], ["score", "num"],
            [four ? "table total" : "total", "num"]].map(([h, cls]) => el("th", { class: cls, text: h })))),
          el("tbody", {}, [0, 1, 2].map((seat) => el("tr", { id: "score-" + seat },
            el("td", { class: "num", text: String(seat) }), el("td", { text: botName(deal, seat) }),
            el("td", { class: "num", text: String(deal[F.tricks][seat]) }),
            el("td", { class: "num", text: String(deal[F.points][seat]) }),
            el("td", { class: "num", text: signed(deal[F.scores][seat]) }),
            el("td", { class: "num", text: signed(deal[F.totals][seat]) }))),
          four ? el("tr", { id: "score-out", class: "sitter" },
            el("td", { class: "num", text: "out" }), el("td", { text: `${sitterName(deal)} (sat out, dealer)` }),
            el("td", { class: "num", text: "\u2014" }), el("td", { class: "num", text: "\u2014" }),
            el("td", { class: "num", text: signed(sitterScore(deal)) }),
            el("td", { class: "num", text: signed(four.totals[four.out]) })) : null))),
        deal[F.pule] ? el("p", { text: "pules: " + deal[F.pule] }) : null,
        deal[F.pules_before] || deal[F.pules_after]
          ? el("p", { id: "pules", text: `pules before the deal: ${puleText(deal, deal[F.pules_before])}; after: ${puleText(deal, deal[F.pules_after])}` })
          : null,
        faults.length ? el("div", {}, el("h4", { text: "faults" }), el("ul", { id: "deal-faults" }, faults)) : null);
    } else if (cardsPlayed > 0) {
      const soloist = deal[F.soloist];
      const sides = soloist === null || deal[F.contract] === "table" ? "" :
        `; soloist ${taken[soloist]}, defenders ${taken.reduce((a, b) => a + b, 0) - taken[soloist]}`;
      end = el("p", { class: "note", id: "taken", text: "card points in tricks so far: " +
        [0, 1, 2].map((s) => `${botName(deal, s)} ${taken[s]} (${won[s]} trick${won[s] === 1 ? "" : "s"})`).join(", ") + sides });
    }

    const analysed = analysisNow(deal, analysis, tricks, step);
    const summary = step === last ? analysisSummary(deal, analysis, tricks) : null;
    box.replaceChildren(...[title, nav, seats, controls, facts, hands, trickBox, analysed, end, summary, trickTable]
      .filter((part) => part !== null));
    box.hidden = false;
    if (refocus) {
      const again = document.getElementById(refocus);
      if (again && !again.disabled) again.focus({ preventScroll: true });
    }
    performance.mark("zole-deal-drawn"); // for the benchmark: how long a deal takes to show
  }
  function soloistPoints(deal) {
    // The soloist's points as scored, and what they hold besides the tricks (the buried
    // cards after a take; the talon is the rules' to give).
    const points = deal[F.soloist_points];
    if (points === null || deal[F.ended_early]) return "";
    const inTricks = deal[F.points][deal[F.soloist]];
    return points === inTricks ? ` (${points} points)`
      : ` (${points} points: ${inTricks} in tricks, ${points - inTricks} ${deal[F.contract] === "take" ? "buried" : "from the talon"})`;
  }
  function trickStep(deal, step, direction) {
    // The step that ends the trick after (or before) the one on the table.
    const bounds = [0, 1];
    for (let cards = 3; cards < deal[F.plays].length; cards += 3) bounds.push(1 + cards);
    bounds.push(lastStep(deal));
    if (direction > 0) return bounds.find((b) => b > step) ?? lastStep(deal);
    return bounds.filter((b) => b < step).pop() ?? 0;
  }
  function go(step) {
    const deal = D.deals[view.deal];
    view.step = Math.max(0, Math.min(step, lastStep(deal)));
    writeHash(false);
  }

  document.addEventListener("keydown", (event) => {
    if (view.deal === null || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = (event.target && event.target.tagName) || "";
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && event.target.type !== "radio")) return;
    const deal = D.deals[view.deal];
    const moves = {
      ArrowRight: () => go(view.step + 1), ArrowLeft: () => go(view.step - 1),
      ArrowDown: () => go(trickStep(deal, view.step, +1)), ArrowUp: () => go(trickStep(deal, view.step, -1)),
      Home: () => go(0), End: () => go(lastStep(deal)),
      n: () => { const next = neighbour(view.deal, +1); if (next !== undefined) openDeal(next); },
      p: () => { const prev = neighbour(view.deal, -1); if (prev !== undefined) openDeal(prev); },
    };
    if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
  });
  window.addEventListener("hashchange", readHash); // a link followed, an address typed
  window.addEventListener("popstate", readHash); // back and forward

  buildFilters();
  filter();
  readHash();
  performance.mark("zole-report-ready"); // for the benchmark: the page is ready to use
})();
