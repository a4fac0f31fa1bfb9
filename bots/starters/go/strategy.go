// strategy.go: the cards and the decisions. Each choose* function is a place to make the
// bot stronger; they all pick from the legal answers they are given.
package main

import (
	"sort"
	"strings"
)

// The 14 trumps, strongest first. Every queen, jack and diamond is a trump.
var trumps = []string{"QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D"}

func isTrump(c string) bool { return c[0] == 'Q' || c[0] == 'J' || c[1] == 'D' }

// suit is what a card must follow: 'D' stands for the whole trump suit (QC included).
func suit(c string) byte {
	if isTrump(c) {
		return 'D'
	}
	return c[1]
}

// pointsOf is what each rank counts; 9, 8 and 7 count nothing.
var pointsOf = map[byte]int{'A': 11, 'T': 10, 'K': 4, 'Q': 3, 'J': 2}

func points(c string) int { return pointsOf[c[0]] }

// power orders cards by strength: any trump beats any plain card (A T K 9 8 7).
func power(c string) int {
	for i, t := range trumps {
		if t == c {
			return 100 - i
		}
	}
	return 10 - strings.IndexByte("ATK987", c[0])
}

// beats tells whether card a, played now, beats b, the card winning the trick so far.
func beats(a, b string) bool {
	if suit(a) == suit(b) {
		return power(a) > power(b)
	}
	return isTrump(a) // a plain card of another suit never wins
}

// Orders for pick: each says whether a is better than b.
func weaker(a, b string) bool   { return power(a) < power(b) }
func stronger(a, b string) bool { return power(a) > power(b) }
func cheaper(a, b string) bool { // fewest points, then the weakest
	return points(a) < points(b) || points(a) == points(b) && power(a) < power(b)
}
func richer(a, b string) bool { // most points, then the weakest
	return points(a) > points(b) || points(a) == points(b) && power(a) < power(b)
}

// pick returns the best card by better; on a tie the one that comes first.
func pick(cards []string, better func(a, b string) bool) string {
	best := cards[0]
	for _, c := range cards[1:] {
		if better(c, best) {
			best = c
		}
	}
	return best
}

func filter(cards []string, keep func(string) bool) []string {
	var kept []string
	for _, c := range cards {
		if keep(c) {
			kept = append(kept, c)
		}
	}
	return kept
}

// chooseBid counts trumps and queens in the 8 dealt cards. Stronger: value aces and voids,
// look at the scores and the pules, bid a small zole with a hopeless hand.
func chooseBid(hand, legal []string) string {
	t, q := 0, 0
	for _, c := range hand {
		if isTrump(c) {
			t++
		}
		if c[0] == 'Q' {
			q++
		}
	}
	switch {
	case contains(legal, "zole") && (t >= 7 || t >= 6 && q >= 3):
		return "zole"
	case contains(legal, "take") && (t >= 6 || t >= 5 && q >= 2):
		return "take"
	case contains(legal, "pass"):
		return "pass"
	}
	return legal[0]
}

// chooseBury buries the two plain cards worth the most points (on a tie the one of the
// shorter suit, to void it), or the weakest trumps when there are fewer than two plain cards.
// Stronger: keep a guarded ace, bury a lone ten or king, think about which suits to void.
func chooseBury(cards []string) (string, string) {
	length := map[byte]int{}
	for _, c := range cards {
		length[suit(c)]++
	}
	order := append([]string(nil), cards...)
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if isTrump(a) != isTrump(b) {
			return !isTrump(a) // plain cards first
		}
		if isTrump(a) {
			return power(a) < power(b) // the weakest trumps first
		}
		if points(a) != points(b) {
			return points(a) > points(b)
		}
		return length[suit(a)] < length[suit(b)]
	})
	return order[0], order[1]
}

// choosePlay picks a card to play from legal.
func (d *deal) choosePlay(legal []string) string {
	if len(d.trick) == 0 {
		return d.chooseLead(legal)
	}
	win := d.trick[0] // who is winning the trick so far
	for _, p := range d.trick[1:] {
		if beats(p.card, win.card) {
			win = p
		}
	}
	winners := filter(legal, func(c string) bool { return beats(c, win.card) })
	if d.contract == "table" {
		// Everyone for himself, wanting few tricks: the strongest card that does not win.
		losers := filter(legal, func(c string) bool { return !beats(c, win.card) })
		if len(losers) > 0 {
			return pick(losers, stronger)
		}
		return pick(legal, weaker)
	}
	partner := d.soloist >= 0 && d.seat != d.soloist && win.seat != d.soloist
	if partner && len(d.trick) == 2 {
		return pick(legal, richer) // our side takes the trick: give it the points
	}
	// Stronger: as second player, think about what the third can still play.
	if len(winners) > 0 {
		return pick(winners, cheaper)
	}
	return pick(legal, cheaper)
}

// chooseLead picks the first card of a trick.
func (d *deal) chooseLead(legal []string) string {
	if d.contract == "table" {
		return pick(legal, weaker)
	}
	if d.seat == d.soloist {
		// Draw trumps: the top trump if nothing can beat it, else the lowest trump.
		if ts := filter(legal, isTrump); len(ts) > 0 {
			if top := pick(ts, stronger); d.isMaster(top) {
				return top
			}
			return pick(ts, weaker)
		}
		return pick(legal, func(a, b string) bool {
			return points(a) > points(b) || points(a) == points(b) && power(a) > power(b)
		})
	}
	// A defender cashes a plain ace, else gives away as little as it can.
	// Stronger: lead through the soloist into a suit he lacks, count the suits.
	for _, c := range legal {
		if c[0] == 'A' && !isTrump(c) {
			return c
		}
	}
	return pick(legal, cheaper)
}

// isMaster tells whether no trump stronger than card is still out: each one was played,
// is in our hand, or was buried by us.
func (d *deal) isMaster(card string) bool {
	for _, t := range trumps {
		if t == card {
			return true
		}
		if !d.played[t] && !contains(d.hand, t) && !contains(d.buried, t) {
			return false
		}
	}
	return true
}
