// starter-go: a small Zole bot for zole-arena, speaking protocol v1 on stdin/stdout.
//
// main.go reads the arena's lines and keeps the deal's state (the hand, the bids, the
// contract, every card played, the current trick); strategy.go decides.
// Only the standard library is used. Debugging goes to stderr, never to stdout.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// play is one card of the current trick and the seat that played it.
type play struct {
	seat int
	card string
}

// deal is what the bot knows about the deal in progress, kept from the arena's messages.
type deal struct {
	seat     int
	hand     []string        // the cards held now
	allpass  string          // what three passes lead to: "table" or "pule"
	bids     []string        // the bids so far, from the forehand
	contract string          // "" until the bidding ends; then take, zole, smallzole, table
	soloist  int             // -1 when there is none
	played   map[string]bool // every card played in this deal
	buried   []string        // the two cards this bot buried, when it is the soloist
	trick    []play          // the current trick so far, in order
}

// newDeal starts over from a `newdeal` message's fields (every deal, and every new match).
func newDeal(f map[string]string) *deal {
	d := &deal{seat: atoi(f["seat"]), hand: list(f["hand"]), allpass: f["allpass"],
		soloist: -1, played: map[string]bool{}}
	if d.allpass == "" {
		d.allpass = "table"
	}
	return d
}

// onBid records a `bid <seat> <bid>` event: the first non-pass ends the bidding.
func (d *deal) onBid(seat int, bid string) {
	d.bids = append(d.bids, bid)
	if bid != "pass" {
		d.contract, d.soloist = bid, seat
	} else if len(d.bids) == 3 && d.contract == "" {
		d.contract = d.allpass
	}
}

// onCard records a `card <seat> <card>` event; our own cards come back as events too.
func (d *deal) onCard(seat int, card string) {
	d.played[card] = true
	d.trick = append(d.trick, play{seat, card})
	if seat == d.seat {
		d.hand = without(d.hand, card)
	}
}

// decide answers a `go` request. The answer is always taken from `legal`.
func (d *deal) decide(f map[string]string) string {
	legal := list(f["legal"])
	if len(legal) == 0 {
		return "pass" // never happens: the arena always sends legal answers
	}
	if f["phase"] == "bury" {
		// The talon is told only here, to the soloist who took it.
		d.hand = append(d.hand, list(f["talon"])...)
	}
	d.resync(f)
	switch f["phase"] {
	case "bid":
		return chooseBid(d.hand, legal)
	case "bury":
		a, b := chooseBury(legal)
		d.buried = []string{a, b}
		d.hand = without(without(d.hand, a), b)
		return a + " " + b
	case "play":
		return d.choosePlay(legal)
	}
	return legal[0]
}

// resync compares our state with the `go` and trusts the `go` where they differ. That
// happens to a restarted soloist after burying (burying is never an event) or after a bug.
func (d *deal) resync(f map[string]string) {
	if b := list(f["buried"]); len(b) > 0 {
		d.buried = b
	}
	if !sameCards(d.hand, list(f["hand"])) {
		fmt.Fprintf(os.Stderr, "starter-go: my hand %v, the arena says %s: using the arena's\n", d.hand, f["hand"])
		d.hand = list(f["hand"])
	}
	if c := f["contract"]; c != "-" && c != d.contract {
		fmt.Fprintf(os.Stderr, "starter-go: contract %q, the arena says %s\n", d.contract, c)
		d.contract, d.soloist = c, -1
		if s := f["soloist"]; s != "-" {
			d.soloist = atoi(s)
		}
	}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 1024*1024) // protocol lines are up to 64 KiB
	out := bufio.NewWriter(os.Stdout)
	send := func(line string) {
		out.WriteString(line + "\n")
		out.Flush() // flush after EVERY line: an answer left in the buffer is a timeout
	}
	d := newDeal(map[string]string{})
	for in.Scan() {
		words := strings.Fields(in.Text()) // spaces, tabs and a trailing \r
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "zole":
			send("id name starter-go")
			send("id author zole-arena starter")
			send("zoleok 1")
		case "isready":
			send("readyok")
		case "newdeal":
			d = newDeal(fields(words))
		case "bid":
			if len(words) >= 3 {
				d.onBid(atoi(words[1]), words[2])
			}
		case "card":
			if len(words) >= 3 {
				d.onCard(atoi(words[1]), words[2])
			}
		case "trick":
			d.trick = nil
		case "go":
			f := fields(words)
			send("action " + f["id"] + " " + d.decide(f))
		case "quit":
			return
		}
		// Anything else (setoption, result, unknown messages) is ignored.
	}
}

// fields reads the `key value key value ...` after a message's name.
func fields(words []string) map[string]string {
	f := map[string]string{}
	for i := 1; i+1 < len(words); i += 2 {
		f[words[i]] = words[i+1]
	}
	return f
}

// list splits a comma list; "-" or nothing is the empty list.
func list(s string) []string {
	if s == "" || s == "-" {
		return nil
	}
	return strings.Split(s, ",")
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func without(cards []string, card string) []string {
	var rest []string
	for _, c := range cards {
		if c != card {
			rest = append(rest, c)
		}
	}
	return rest
}

func contains(cards []string, card string) bool {
	for _, c := range cards {
		if c == card {
			return true
		}
	}
	return false
}

// sameCards tells whether a and b hold the same cards, in any order.
func sameCards(a, b []string) bool {
	sorted := func(cards []string) string {
		s := append([]string(nil), cards...)
		sort.Strings(s)
		return strings.Join(s, ",")
	}
	return sorted(a) == sorted(b)
}
