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
    if (kind === "pule") return "all passed: a pule";
    return botName(deal, deal[F.soloist]) + ": " + D.bands[deal[F.band]];
  }
  const contractWord = (deal) => deal[F.contract] === null ? "\u2014" :
    (D.contract_words[deal[F.contract]] || deal[F.contract]);

  // -- the deal list ------------------------------------------------------------------------

  const state = { bot: "", contract: "", result: "", faults: false, table: "", page: 0 };
  let shown = D.deals.map((_, i) => i);

  function select(label, key, options) {
    const box = el("select", {
      "aria-label": label, id: "filter-" + key,
      onchange: (event) => { state[key] = event.target.value; state.page = 0; filter(); },
    }, options.map(([value, text]) => el("option", { value, text })));
    return el("label", {}, label + " ", box);
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
      parts.push(select("match", "table", [["", "any"],
        ...D.tables.map((t, i) => [String(i), tableLabel(i)])]));
    }
    parts.push(el("label", {}, el("input", {
      type: "checkbox", id: "filter-faults",
      onchange: (event) => { state.faults = event.target.checked; state.page = 0; filter(); },
    }), " with faults only"));
    document.getElementById("filters").append(...parts);
  }
  function tableLabel(index) {
    const table = D.tables[index];
    return D.logs.length > 1 ? "log " + (table.log + 1) + " \u00b7 " + table.label : table.label;
  }
  function matches(deal) {
    if (state.bot !== "" && !deal[F.players].includes(Number(state.bot))) return false;
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
  }
  function drawList() {
    const box = document.getElementById("dealist");
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    const first = state.page * PAGE;
    const rows = shown.slice(first, first + PAGE).map((index) => {
      const deal = D.deals[index];
      const seats = [0, 1, 2].map((seat) => el("span", {
        class: seat === deal[F.soloist] ? "soloist" : "",
        text: botName(deal, seat),
      }));
      return el("tr", {
        class: "deal-row", tabIndex: 0, "data-deal": String(index + 1),
        onclick: () => openDeal(index),
        onkeydown: (event) => { if (event.key === "Enter") openDeal(index); },
      },
      el("td", { text: String(index + 1) }),
      D.tables.length > 1 ? el("td", { text: tableLabel(deal[F.table]) }) : null,
      el("td", { text: String(deal[F.deal]) }),
      el("td", { class: "seats" }, seats[0], ", ", seats[1], ", ", seats[2]),
      el("td", { text: contractWord(deal) }),
      el("td", { text: resultText(deal) }),
      el("td", { class: "num", text: deal[F.scores].map(signed).join(" ") }),
      el("td", { class: deal[F.faults].length ? "bad num" : "num", text: String(deal[F.faults].length) }));
    });
    const head = el("tr", {}, ["#", D.tables.length > 1 ? "match" : null, "deal",
      "seats 0, 1, 2 (soloist in bold)", "contract", "result", "scores", "faults"]
      .filter((h) => h !== null).map((h) => el("th", { text: h })));
    const pager = el("div", { class: "pager" },
      el("button", { type: "button", id: "page-prev", disabled: state.page === 0,
        onclick: () => { state.page -= 1; drawList(); } }, "\u2039 previous"),
      el("span", { id: "page-info", text: shown.length
        ? `deals ${first + 1}\u2013${Math.min(first + PAGE, shown.length)} of ${shown.length}` +
          (shown.length !== D.deals.length ? ` (of ${D.deals.length} in all)` : "")
        : "no deal matches" }),
      el("button", { type: "button", id: "page-next", disabled: state.page >= pages - 1,
        onclick: () => { state.page += 1; drawList(); } }, "next \u203a"));
    box.replaceChildren(pager, el("table", { class: "deals" }, el("thead", {}, head), el("tbody", {}, rows)));
  }

  // -- the deal viewer ----------------------------------------------------------------------

  const view = { deal: null, seat: "all", step: 0 };

  function steps(deal) {
    // 0: as dealt; 1: after the bidding (and the bury); then one step per trick, the last
    // perhaps unfinished (a deal forfeited mid-trick).
    return 2 + Math.ceil(deal[F.plays].length / 3);
  }
  function openDeal(index, seat, step) {
    view.deal = index;
    view.seat = seat === undefined ? view.seat : seat;
    view.step = step === undefined ? 0 : step;
    writeHash();
  }
  function writeHash() {
    const parts = ["deal=" + (view.deal + 1)];
    if (view.seat !== "all") parts.push("seat=" + view.seat);
    if (view.step) parts.push("step=" + view.step);
    const hash = "#" + parts.join("&");
    // A new entry in the history (the back button steps back), and the view drawn now: a
    // key press shows its step before the next one is read.
    if (location.hash !== hash) history.pushState(null, "", hash);
    draw();
  }
  function readHash() {
    const found = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const [key, value] = part.split("=");
      if (key) found[key] = value;
    }
    const number = Number(found.deal);
    if (!Number.isInteger(number) || number < 1 || number > D.deals.length) {
      if (view.deal !== null) { view.deal = null; draw(); }
      return;
    }
    view.deal = number - 1;
    view.seat = ["0", "1", "2"].includes(found.seat) ? Number(found.seat) : "all";
    const step = Number(found.step || 0);
    const last = steps(D.deals[view.deal]) - 1;
    view.step = Number.isInteger(step) ? Math.max(0, Math.min(step, last)) : 0;
    draw();
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
  function handAt(deal, seat, step) {
    const cards = lettersOf(deal[F.cards]);
    let hand = cards.slice(seat * 8, seat * 8 + 8);
    if (step >= 1 && deal[F.contract] === "take" && deal[F.soloist] === seat) {
      const buried = lettersOf(deal[F.buried]);
      hand = hand.concat(cards.slice(24, 26)).filter((c) => !buried.includes(c));
    }
    const played = lettersOf(deal[F.plays]).slice(0, Math.max(0, step - 1) * 3);
    return byStrength(hand.filter((c) => !played.includes(c)));
  }
  function tricksOf(deal) {
    const plays = lettersOf(deal[F.plays]);
    const tricks = [];
    let leader = deal[F.leader];
    for (let t = 0; t * 3 < plays.length; t += 1) {
      const cards = plays.slice(t * 3, t * 3 + 3);
      const winner = t < deal[F.winners].length ? Number(deal[F.winners][t]) : null;
      const points = cards.reduce((sum, c) => sum + D.cards[cardIndex(c)].points, 0);
      tricks.push({ leader, cards, winner, points });
      if (winner !== null) leader = winner;
    }
    return tricks;
  }
  function seatLabel(deal, seat) {
    const marks = [];
    if (seat === deal[F.dealer]) marks.push("dealer");
    if (seat === (deal[F.dealer] + 1) % 3) marks.push("forehand");
    if (seat === deal[F.soloist]) marks.push("soloist");
    return `seat ${seat}: ${botName(deal, seat)}` + (marks.length ? ` (${marks.join(", ")})` : "");
  }

  function draw() {
    const box = document.getElementById("viewer");
    if (view.deal === null) { box.hidden = true; box.replaceChildren(); return; }
    const deal = D.deals[view.deal];
    const last = steps(deal) - 1;
    const tricks = tricksOf(deal);
    const step = view.step;
    const position = shown.indexOf(view.deal);

    const title = el("h3", { id: "viewer-title" },
      `Deal ${view.deal + 1}: ${tableLabel(deal[F.table])}, deal ${deal[F.deal]}` +
      (deal[F.block] !== deal[F.deal] ? ` (block ${deal[F.block]})` : ""));
    const nav = el("div", { class: "dealnav" },
      el("button", { type: "button", id: "deal-prev", disabled: position <= 0,
        onclick: () => openDeal(shown[position - 1]) }, "\u2039 previous deal"),
      el("a", { href: location.hash, id: "deal-link", text: "link to this view" }),
      el("button", { type: "button", id: "deal-next", disabled: position < 0 || position >= shown.length - 1,
        onclick: () => openDeal(shown[position + 1]) }, "next deal \u203a"),
      el("button", { type: "button", id: "deal-close", onclick: () => { history.replaceState(null, "", "#deals"); view.deal = null; draw(); } }, "close"));

    const seats = el("fieldset", { class: "seatpick", id: "seat-toggle" }, el("legend", { text: "as seen by" }),
      ["all", 0, 1, 2].map((seat) => el("label", {},
        el("input", { type: "radio", name: "seat", value: String(seat), checked: view.seat === seat,
          onchange: () => { view.seat = seat; writeHash(); } }),
        seat === "all" ? " everyone (all cards open)" : ` seat ${seat}: ${botName(deal, seat)}`)));

    const bids = deal[F.bids].map(([seat, bid]) => el("li", {},
      el("b", { text: botName(deal, seat) }), " (seat " + seat + "): ", D.contract_words[bid] || bid));
    const talonHidden = hiddenFrom(deal, "talon");
    const talon = lettersOf(deal[F.cards]).slice(24, 26);
    const buried = lettersOf(deal[F.buried]);
    const facts = el("div", { class: "facts" },
      el("div", {}, el("h4", { text: "bidding" }), el("ol", { id: "bids" }, bids),
        el("p", {}, "contract: ", el("b", { id: "contract", text: contractWord(deal) }),
          deal[F.soloist] !== null ? ", soloist " + botName(deal, deal[F.soloist]) : "")),
      el("div", {}, el("h4", { text: "talon" }), el("div", { id: "talon", class: "cards" },
        talonHidden ? talon.map(back) : talon.map((c) => card(c)))),
      buried.length ? el("div", {}, el("h4", { text: "buried" }), el("div", { id: "buried", class: "cards" },
        talonHidden ? buried.map(back) : buried.map((c) => card(c)))) : null);

    const hands = el("div", { class: "hands", id: "hands" }, [0, 1, 2].map((seat) => {
      const hand = handAt(deal, seat, step);
      const hidden = hiddenFrom(deal, seat);
      return el("div", { class: "hand" + (seat === view.seat ? " me" : ""), id: "hand-" + seat, "data-hidden": hidden ? "yes" : "no" },
        el("div", { class: "who", text: seatLabel(deal, seat) }),
        el("div", { class: "cards" }, hidden ? hand.map(back) : hand.map((c) => card(c))));
    }));

    let trickBox;
    if (step >= 2) {
      const trick = tricks[step - 2];
      const bySeat = {};
      trick.cards.forEach((c, i) => { bySeat[(trick.leader + i) % 3] = c; });
      trickBox = el("div", { class: "trick", id: "trick" },
        el("h4", { text: `trick ${step - 1} of ${tricks.length}` + (trick.winner === null ? " (not finished)" : "") }),
        el("div", { class: "played" }, trick.cards.map((c, i) => {
          const seat = (trick.leader + i) % 3;
          return el("div", { class: "play" + (seat === trick.winner ? " winner" : ""), "data-seat": String(seat) },
            card(c), el("div", { class: "who", text: botName(deal, seat) + (i === 0 ? " (led)" : "") }));
        })),
        el("p", { id: "trick-winner" }, trick.winner === null ? "unfinished"
          : [el("b", { text: botName(deal, trick.winner) }), ` wins ${trick.points} points`]));
    } else {
      trickBox = el("div", { class: "trick", id: "trick" },
        el("h4", { text: step === 0 ? "as dealt" : "after the bidding" }),
        el("p", { text: tricks.length ? "\u2192 to step through the tricks" : "no cards were played" }));
    }

    const taken = [0, 0, 0];
    const trickRows = tricks.map((trick, t) => {
      const done = t + 2 <= step;
      if (done && trick.winner !== null) taken[trick.winner] += trick.points;
      return el("tr", { class: (t + 2 === step ? "current" : "") + (done ? "" : " future") },
        el("td", { text: String(t + 1) }),
        el("td", {}, done ? trick.cards.map((c, i) => [card(c), i < 2 ? " " : ""]) : "\u00a0"),
        el("td", { text: done ? botName(deal, trick.leader) : "" }),
        el("td", { text: done && trick.winner !== null ? botName(deal, trick.winner) : "" }),
        el("td", { class: "num", text: done ? String(trick.points) : "" }));
    });
    const trickTable = tricks.length ? el("table", { class: "tricks", id: "tricks" },
      el("thead", {}, el("tr", {}, ["#", "cards (in order played)", "led", "won", "points"].map((h) => el("th", { text: h })))),
      el("tbody", {}, trickRows)) : null;

    const controls = el("div", { class: "steps" },
      el("button", { type: "button", id: "step-first", disabled: step === 0, onclick: () => go(0), title: "first (Home)" }, "\u00ab"),
      el("button", { type: "button", id: "step-back", disabled: step === 0, onclick: () => go(step - 1), title: "\u2190" }, "\u25c0"),
      el("span", { id: "step-info", text: `step ${step} of ${last}` }),
      el("button", { type: "button", id: "step-forward", disabled: step === last, onclick: () => go(step + 1), title: "\u2192" }, "\u25b6"),
      el("button", { type: "button", id: "step-last", disabled: step === last, onclick: () => go(last), title: "last (End)" }, "\u00bb"),
      el("span", { class: "note", text: "keys: \u2190 \u2192 Home End; n / p: next / previous deal" }));

    let end = null;
    if (step === last) {
      const faults = deal[F.faults].map((f) => {
        const [, seat, , kind, message] = D.faults[f];
        return el("li", {}, el("b", { text: kind }), ` ${botName(deal, seat)} (seat ${seat}): `, message);
      });
      end = el("div", { class: "end", id: "deal-end" },
        el("h4", { text: "result" }), el("p", { id: "result", text: resultText(deal) +
          (deal[F.soloist_points] !== null ? ` (${deal[F.soloist_points]} points)` : "") }),
        el("table", { class: "scores", id: "scores" },
          el("thead", {}, el("tr", {}, ["seat", "bot", "card points", "score", "total"].map((h) => el("th", { text: h })))),
          el("tbody", {}, [0, 1, 2].map((seat) => el("tr", {},
            el("td", { text: String(seat) }), el("td", { text: botName(deal, seat) }),
            el("td", { class: "num", text: String(deal[F.points][seat]) }),
            el("td", { class: "num", text: signed(deal[F.scores][seat]) }),
            el("td", { class: "num", text: signed(deal[F.totals][seat]) }))))),
        deal[F.pule] ? el("p", { text: "pules: " + deal[F.pule] }) : null,
        faults.length ? el("div", {}, el("h4", { text: "faults" }), el("ul", { id: "deal-faults" }, faults)) : null);
    } else if (step >= 2) {
      end = el("p", { class: "note", id: "taken", text: "card points taken so far: " +
        [0, 1, 2].map((s) => `${botName(deal, s)} ${taken[s]}`).join(", ") });
    }

    box.replaceChildren(title, nav, seats, facts, hands, controls, trickBox, end, trickTable);
    box.hidden = false;
    performance.mark("zole-deal-drawn"); // for the benchmark: how long a deal takes to show
  }
  function go(step) {
    const deal = D.deals[view.deal];
    view.step = Math.max(0, Math.min(step, steps(deal) - 1));
    writeHash();
  }

  document.addEventListener("keydown", (event) => {
    if (view.deal === null || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = (event.target && event.target.tagName) || "";
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && event.target.type !== "radio")) return;
    const last = steps(D.deals[view.deal]) - 1;
    const position = shown.indexOf(view.deal);
    const moves = {
      ArrowRight: () => go(view.step + 1), ArrowLeft: () => go(view.step - 1),
      Home: () => go(0), End: () => go(last),
      n: () => { if (position >= 0 && position < shown.length - 1) openDeal(shown[position + 1]); },
      p: () => { if (position > 0) openDeal(shown[position - 1]); },
    };
    if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
  });
  window.addEventListener("hashchange", readHash); // a link followed, an address typed
  window.addEventListener("popstate", readHash); // back and forward

  buildFilters();
  filter();
  readHash();
  performance.mark("zole-report-ready"); // for the benchmark: the page is ready to use
  if (view.deal !== null) document.getElementById("viewer").scrollIntoView();
})();
