//! starter-rust: a small Zole bot for zole-arena, speaking protocol v1 on stdin/stdout.
//!
//! `main` reads the arena's lines, `Deal` keeps the deal's state (the hand, the bids, the
//! contract, every card played, the current trick) and the `choose_*` functions decide.
//! Only the standard library is used. Debugging goes to stderr, never to stdout.

use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, Write};

/// The 14 trumps, strongest first. Every queen, jack and diamond is a trump.
const TRUMPS: [&str; 14] = [
    "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D",
];

fn is_trump(c: &str) -> bool {
    c.starts_with('Q') || c.starts_with('J') || c.ends_with('D')
}

/// What a card must follow: 'D' stands for the whole trump suit (QC included).
fn suit(c: &str) -> char {
    if is_trump(c) {
        'D'
    } else {
        c.chars().nth(1).unwrap_or('?')
    }
}

/// A 11, T 10, K 4, Q 3, J 2, the rest 0.
fn points(c: &str) -> i32 {
    match c.chars().next() {
        Some('A') => 11,
        Some('T') => 10,
        Some('K') => 4,
        Some('Q') => 3,
        Some('J') => 2,
        _ => 0,
    }
}

/// Orders cards by strength: any trump beats any plain card (A T K 9 8 7).
fn power(c: &str) -> i32 {
    if let Some(i) = TRUMPS.iter().position(|t| *t == c) {
        return 100 - i as i32;
    }
    let rank = c.chars().next().and_then(|r| "ATK987".find(r)).unwrap_or(6);
    10 - rank as i32
}

/// Whether card `a`, played now, beats `b`, the card winning the trick so far.
fn beats(a: &str, b: &str) -> bool {
    if suit(a) == suit(b) {
        power(a) > power(b)
    } else {
        is_trump(a) // a plain card of another suit never wins
    }
}

// Orders for `pick`: each says whether a is better than b.
fn weaker(a: &str, b: &str) -> bool {
    power(a) < power(b)
}
fn stronger(a: &str, b: &str) -> bool {
    power(a) > power(b)
}
/// Fewest points, then the weakest.
fn cheaper(a: &str, b: &str) -> bool {
    (points(a), power(a)) < (points(b), power(b))
}
/// Most points, then the weakest.
fn richer(a: &str, b: &str) -> bool {
    points(a) > points(b) || points(a) == points(b) && power(a) < power(b)
}

/// The best card by `better`; on a tie the one that comes first.
fn pick(cards: &[String], better: impl Fn(&str, &str) -> bool) -> String {
    let mut best = &cards[0];
    for c in &cards[1..] {
        if better(c, best) {
            best = c;
        }
    }
    best.clone()
}

fn filter(cards: &[String], keep: impl Fn(&str) -> bool) -> Vec<String> {
    cards.iter().filter(|c| keep(c)).cloned().collect()
}

/// Counts trumps and queens in the 8 dealt cards. Stronger: value aces and voids, look at
/// the scores and the pules, bid a small zole with a hopeless hand.
fn choose_bid(hand: &[String], legal: &[String]) -> String {
    let t = hand.iter().filter(|c| is_trump(c)).count();
    let q = hand.iter().filter(|c| c.starts_with('Q')).count();
    let offered = |bid: &str| legal.iter().any(|b| b == bid);
    if offered("zole") && (t >= 7 || t >= 6 && q >= 3) {
        "zole".to_string()
    } else if offered("take") && (t >= 6 || t >= 5 && q >= 2) {
        "take".to_string()
    } else if offered("pass") {
        "pass".to_string()
    } else {
        legal[0].clone()
    }
}

/// Buries the two plain cards worth the most points (on a tie the one of the shorter suit,
/// to void it), or the weakest trumps when there are fewer than two plain cards.
/// Stronger: keep a guarded ace, bury a lone ten or king, think about which suits to void.
fn choose_bury(cards: &[String]) -> (String, String) {
    let mut length: HashMap<char, usize> = HashMap::new();
    for c in cards {
        *length.entry(suit(c)).or_insert(0) += 1;
    }
    let mut order = cards.to_vec();
    // A stable sort: plain cards first, most points first, then the shorter suit;
    // then the trumps, weakest first.
    order.sort_by_key(|c| {
        if is_trump(c) {
            (1, power(c), 0)
        } else {
            (0, -points(c), length[&suit(c)] as i32)
        }
    });
    (order[0].clone(), order[1].clone())
}

/// What the bot knows about the deal in progress, kept from the arena's messages.
struct Deal {
    seat: usize,
    hand: Vec<String>,           // the cards held now
    allpass: String,             // what three passes lead to: "table" or "pule"
    bids: Vec<String>,           // the bids so far, from the forehand
    contract: String,            // "" until the bidding ends; then take, zole, smallzole, table
    soloist: Option<usize>,      // None when there is none
    played: HashSet<String>,     // every card played in this deal
    buried: Vec<String>,         // the two cards this bot buried, when it is the soloist
    trick: Vec<(usize, String)>, // the current trick so far: (seat, card), in order
}

impl Deal {
    /// Starts over from a `newdeal` message's fields (every deal, and every new match).
    fn new(f: &HashMap<&str, &str>) -> Deal {
        Deal {
            seat: get(f, "seat").parse().unwrap_or(0),
            hand: list(get(f, "hand")),
            allpass: match get(f, "allpass") {
                "" => "table".to_string(),
                a => a.to_string(),
            },
            bids: Vec::new(),
            contract: String::new(),
            soloist: None,
            played: HashSet::new(),
            buried: Vec::new(),
            trick: Vec::new(),
        }
    }

    /// A `bid <seat> <bid>` event: the first non-pass ends the bidding.
    fn on_bid(&mut self, seat: usize, bid: &str) {
        self.bids.push(bid.to_string());
        if bid != "pass" {
            self.contract = bid.to_string();
            self.soloist = Some(seat);
        } else if self.bids.len() == 3 && self.contract.is_empty() {
            self.contract = self.allpass.clone();
        }
    }

    /// A `card <seat> <card>` event; our own cards come back as events too.
    fn on_card(&mut self, seat: usize, card: &str) {
        self.played.insert(card.to_string());
        self.trick.push((seat, card.to_string()));
        if seat == self.seat {
            self.hand.retain(|c| c != card);
        }
    }

    /// Answers a `go` request. The answer is always taken from `legal`.
    fn decide(&mut self, f: &HashMap<&str, &str>) -> String {
        let legal = list(get(f, "legal"));
        if legal.is_empty() {
            return "pass".to_string(); // never happens: the arena always sends legal answers
        }
        if get(f, "phase") == "bury" {
            // The talon is told only here, to the soloist who took it.
            self.hand.extend(list(get(f, "talon")));
        }
        self.resync(f);
        match get(f, "phase") {
            "bid" => choose_bid(&self.hand, &legal),
            "bury" => {
                let (a, b) = choose_bury(&legal);
                self.hand.retain(|c| *c != a && *c != b);
                self.buried = vec![a.clone(), b.clone()];
                format!("{} {}", a, b)
            }
            "play" => self.choose_play(&legal),
            _ => legal[0].clone(),
        }
    }

    /// Compares our state with the `go` and trusts the `go` where they differ. That happens
    /// to a restarted soloist after burying (burying is never an event) or after a bug.
    fn resync(&mut self, f: &HashMap<&str, &str>) {
        let buried = list(get(f, "buried"));
        if !buried.is_empty() {
            self.buried = buried;
        }
        let hand = list(get(f, "hand"));
        let (mut mine, mut theirs) = (self.hand.clone(), hand.clone());
        mine.sort();
        theirs.sort();
        if mine != theirs {
            eprintln!(
                "starter-rust: my hand {:?}, the arena says {:?}: using the arena's",
                self.hand, hand
            );
            self.hand = hand;
        }
        let contract = get(f, "contract");
        if contract != "-" && contract != self.contract {
            eprintln!(
                "starter-rust: contract {:?}, the arena says {}",
                self.contract, contract
            );
            self.contract = contract.to_string();
            self.soloist = get(f, "soloist").parse().ok();
        }
    }

    /// Picks a card to play from `legal`.
    fn choose_play(&self, legal: &[String]) -> String {
        if self.trick.is_empty() {
            return self.choose_lead(legal);
        }
        // Who is winning the trick so far.
        let mut win = &self.trick[0];
        for p in &self.trick[1..] {
            if beats(&p.1, &win.1) {
                win = p;
            }
        }
        if self.contract == "table" {
            // Everyone for himself, wanting few tricks: the strongest card that does not win.
            let losers = filter(legal, |c| !beats(c, &win.1));
            if !losers.is_empty() {
                return pick(&losers, stronger);
            }
            return pick(legal, weaker);
        }
        let partner = match self.soloist {
            Some(s) => self.seat != s && win.0 != s,
            None => false,
        };
        if partner && self.trick.len() == 2 {
            return pick(legal, richer); // our side takes the trick: give it the points
        }
        // Stronger: as second player, think about what the third can still play.
        let winners = filter(legal, |c| beats(c, &win.1));
        if !winners.is_empty() {
            return pick(&winners, cheaper);
        }
        pick(legal, cheaper)
    }

    /// Picks the first card of a trick.
    fn choose_lead(&self, legal: &[String]) -> String {
        if self.contract == "table" {
            return pick(legal, weaker);
        }
        if self.soloist == Some(self.seat) {
            // Draw trumps: the top trump if nothing can beat it, else the lowest trump.
            let trumps = filter(legal, is_trump);
            if !trumps.is_empty() {
                let top = pick(&trumps, stronger);
                if self.is_master(&top) {
                    return top;
                }
                return pick(&trumps, weaker);
            }
            return pick(legal, |a, b| (points(a), power(a)) > (points(b), power(b)));
        }
        // A defender cashes a plain ace, else gives away as little as it can.
        // Stronger: lead through the soloist into a suit he lacks, count the suits.
        if let Some(ace) = legal.iter().find(|c| c.starts_with('A') && !is_trump(c)) {
            return ace.clone();
        }
        pick(legal, cheaper)
    }

    /// Whether no trump stronger than `card` is still out: each one was played, is in our
    /// hand, or was buried by us.
    fn is_master(&self, card: &str) -> bool {
        let known = |t: &str| {
            self.played.contains(t)
                || self.hand.iter().any(|c| c == t)
                || self.buried.iter().any(|c| c == t)
        };
        TRUMPS.iter().take_while(|t| **t != card).all(|t| known(t))
    }
}

/// The `key value key value ...` after a message's name.
fn fields<'a>(words: &[&'a str]) -> HashMap<&'a str, &'a str> {
    words[1..]
        .chunks(2)
        .filter(|p| p.len() == 2)
        .map(|p| (p[0], p[1]))
        .collect()
}

fn get<'a>(f: &HashMap<&str, &'a str>, key: &str) -> &'a str {
    f.get(key).copied().unwrap_or("")
}

/// Splits a comma list; "-" or nothing is the empty list.
fn list(s: &str) -> Vec<String> {
    if s.is_empty() || s == "-" {
        Vec::new()
    } else {
        s.split(',').map(String::from).collect()
    }
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    // Flush after EVERY line: an answer left in a buffer is a timeout.
    let mut send = |line: &str| -> io::Result<()> {
        writeln!(out, "{}", line)?;
        out.flush()
    };
    let mut deal = Deal::new(&HashMap::new());
    for line in stdin.lock().split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        let words: Vec<&str> = line.split_whitespace().collect(); // spaces, tabs, a trailing \r
        let arg = |i: usize| words.get(i).copied().unwrap_or("");
        match arg(0) {
            "zole" => {
                send("id name starter-rust")?;
                send("id author zole-arena starter")?;
                send("zoleok 1")?;
            }
            "isready" => send("readyok")?,
            "newdeal" => deal = Deal::new(&fields(&words)),
            "bid" if words.len() >= 3 => deal.on_bid(arg(1).parse().unwrap_or(0), arg(2)),
            "card" if words.len() >= 3 => deal.on_card(arg(1).parse().unwrap_or(0), arg(2)),
            "trick" => deal.trick.clear(),
            "go" => {
                let f = fields(&words);
                let answer = deal.decide(&f);
                send(&format!("action {} {}", get(&f, "id"), answer))?;
            }
            "quit" => return Ok(()),
            _ => {} // setoption, result, empty and unknown lines are ignored
        }
    }
    Ok(())
}
