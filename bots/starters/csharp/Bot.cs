// starter-csharp: a small, stateful Zole bot for zole-arena (protocol v1).
// Build: mcs -out:Bot.exe Bot.cs      Run: mono Bot.exe
// Plain C# 7 and the base class library only, no Mono-only API (untested on the .NET SDK).
// It reads the arena's lines on stdin and answers on stdout; debugging goes to stderr only.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;

public class Bot
{
    // ---- Cards -------------------------------------------------------------------------
    // Trumps, strongest first. Every queen, jack and diamond is a trump.
    static readonly string[] Trumps =
        { "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D" };
    const string PlainRanks = "789KTA"; // plain suits, weakest first

    static bool IsTrump(string c) { return c[0] == 'Q' || c[0] == 'J' || c[1] == 'D'; }

    // One scale for every card: any trump (87..100) beats any plain card (1..6).
    static int Strength(string c)
    {
        return IsTrump(c) ? 100 - Array.IndexOf(Trumps, c) : 1 + PlainRanks.IndexOf(c[0]);
    }

    static int Points(string c)
    {
        switch (c[0])
        {
            case 'A': return 11;
            case 'T': return 10;
            case 'K': return 4;
            case 'Q': return 3;
            case 'J': return 2;
            default: return 0;
        }
    }

    // Does card c, played after best (the trick's winner so far), take the trick from it?
    static bool Beats(string c, string best)
    {
        if (IsTrump(c) != IsTrump(best)) return IsTrump(c);
        if (IsTrump(c)) return Strength(c) > Strength(best);
        return c[1] == best[1] && Strength(c) > Strength(best);
    }

    // First card of the list with the smallest key (ties: the earlier one). Keys are
    // compared as (primary, secondary).
    static string MinBy(IEnumerable<string> cards, Func<string, int> key, Func<string, int> then = null)
    {
        string best = null;
        foreach (string c in cards)
        {
            if (best == null) { best = c; continue; }
            int d = key(c).CompareTo(key(best));
            if (d == 0 && then != null) d = then(c).CompareTo(then(best));
            if (d < 0) best = c;
        }
        return best;
    }

    static string Weakest(IEnumerable<string> cards) { return MinBy(cards, Strength); }
    static string Strongest(IEnumerable<string> cards) { return MinBy(cards, c => -Strength(c)); }
    static string Cheapest(IEnumerable<string> cards) { return MinBy(cards, Points, Strength); }

    static List<string> ToList(string field)
    {
        return field == null || field == "-" ? new List<string>() : field.Split(',').ToList();
    }

    static string Get(Dictionary<string, string> f, string key, string dflt)
    {
        string v;
        return f.TryGetValue(key, out v) ? v : dflt;
    }

    // ---- The deal's state, kept from the arena's messages --------------------------------
    int seat = -1, soloist = -1;
    string contract = "-", allPass = "table";
    List<string> hand = new List<string>(), buried = new List<string>();
    List<string> bids = new List<string>();
    HashSet<string> played = new HashSet<string>();
    List<int> trickSeats = new List<int>();       // the cards of the trick in progress
    List<string> trickCards = new List<string>();

    void NewDeal(Dictionary<string, string> f)     // every deal starts from scratch
    {
        seat = int.Parse(Get(f, "seat", "-1"));
        hand = ToList(Get(f, "hand", "-"));
        allPass = Get(f, "allpass", "table");
        contract = "-";
        soloist = -1;
        buried.Clear(); bids.Clear(); played.Clear(); trickSeats.Clear(); trickCards.Clear();
    }

    void OnBid(int who, string bid)
    {
        bids.Add(bid);
        if (bid != "pass") { contract = bid; soloist = who; }
        else if (bids.Count == 3 && soloist < 0) contract = allPass; // "table" or "pule"
    }

    void OnCard(int who, string card)
    {
        played.Add(card);
        trickSeats.Add(who);
        trickCards.Add(card);
        if (who == seat) hand.Remove(card);
    }

    void OnTrick() { trickSeats.Clear(); trickCards.Clear(); }

    // ---- Decisions ---------------------------------------------------------------------
    // Stronger: weigh aces and voids, the seat (forehand leads first), the score.
    string ChooseBid(List<string> legal)
    {
        int trumps = hand.Count(IsTrump), queens = hand.Count(c => c[0] == 'Q');
        if (legal.Contains("zole") && (trumps >= 7 || (trumps >= 6 && queens >= 3))) return "zole";
        if (legal.Contains("take") && (trumps >= 6 || (trumps >= 5 && queens >= 2))) return "take";
        return legal.Contains("pass") ? "pass" : legal[0];
    }

    // Bury the two non-trumps worth most (ties: shorter suit first, to make a void);
    // the weakest trumps fill in. Stronger: keep a guarded ten, void a suit on purpose.
    List<string> ChooseBury(List<string> cards)
    {
        var suitLength = new Dictionary<char, int>();
        foreach (string c in cards.Where(c => !IsTrump(c)))
            suitLength[c[1]] = Get(suitLength, c[1]) + 1;
        // OrderBy is a stable sort: equal cards keep the order of legal.
        return cards.OrderBy(c => IsTrump(c))                       // non-trumps first
                    .ThenBy(c => IsTrump(c) ? 0 : -Points(c))       // most points
                    .ThenBy(c => IsTrump(c) ? 0 : suitLength[c[1]]) // shorter suit
                    .ThenBy(Strength)                               // weakest (trumps)
                    .Take(2).ToList();
    }

    static int Get(Dictionary<char, int> d, char k) { int v; return d.TryGetValue(k, out v) ? v : 0; }

    string ChoosePlay(List<string> legal)
    {
        bool table = contract == "table";
        bool soloing = seat == soloist;
        if (trickCards.Count == 0)                         // leading
        {
            if (table) return Weakest(legal);
            if (soloing) return SoloistLead(legal);
            foreach (string c in legal) if (c[0] == 'A' && !IsTrump(c)) return c; // a plain ace
            return Cheapest(legal);
        }
        int winner = trickSeats[0];                         // who is winning the trick so far
        string best = trickCards[0];
        for (int i = 1; i < trickCards.Count; i++)
            if (Beats(trickCards[i], best)) { best = trickCards[i]; winner = trickSeats[i]; }
        if (table)                                          // stay under the winner if we can
        {
            var under = legal.Where(c => !Beats(c, best)).ToList();
            return under.Count == 0 ? Weakest(legal) : Strongest(under);
        }
        bool partnerWins = !soloing && winner != soloist && winner != seat;
        if (partnerWins && trickCards.Count == 2)           // we play last: give the most points
            return MinBy(legal, c => -Points(c), Strength);
        // Stronger: as second player, think about what the third player still holds.
        var winners = legal.Where(c => Beats(c, best)).ToList();
        return Cheapest(winners.Count == 0 ? legal : winners);
    }

    // Soloist on lead: cash a trump that cannot be beaten, else draw with the lowest trump.
    string SoloistLead(List<string> legal)
    {
        var trumps = legal.Where(IsTrump).ToList();
        if (trumps.Count == 0) return MinBy(legal, c => -Points(c));
        string high = Strongest(trumps);
        foreach (string t in Trumps)                        // strongest first
        {
            if (t == high) return high;                     // no stronger trump is still out
            if (!played.Contains(t) && !hand.Contains(t) && !buried.Contains(t)) break;
        }
        return Weakest(trumps);
    }

    // ---- Protocol --------------------------------------------------------------------
    string OnGo(Dictionary<string, string> f)
    {
        var legal = ToList(Get(f, "legal", "-"));
        string phase = Get(f, "phase", "");
        if (phase == "bid") return ChooseBid(legal);
        if (phase == "bury")
        {
            var two = ChooseBury(legal);
            hand = legal.Except(two).ToList();
            buried = two;
            return two[0] + " " + two[1];
        }
        if (!legal.All(hand.Contains))                      // our state disagrees: trust the arena
        {
            Console.Error.WriteLine("starter-csharp: resyncing hand from go");
            hand = ToList(Get(f, "hand", "-"));
            buried = ToList(Get(f, "buried", "-"));
        }
        return ChoosePlay(legal);
    }

    static Dictionary<string, string> Fields(string[] w) // "key value key value ..." after the name
    {
        var f = new Dictionary<string, string>();
        for (int i = 1; i + 1 < w.Length; i += 2) f[w[i]] = w[i + 1];
        return f;
    }

    public static int Main()
    {
        var input = new StreamReader(Console.OpenStandardInput(), Encoding.ASCII);
        // Our own writer, no byte-order mark, "\n" endings; every line must be flushed,
        // or the arena waits for an answer that sits in a buffer.
        var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        output.NewLine = "\n";
        var bot = new Bot();
        string line;
        while ((line = input.ReadLine()) != null)
        {
            string[] w = line.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries);
            if (w.Length == 0) continue;
            var reply = new List<string>();
            try
            {
                switch (w[0])
                {
                    case "zole":
                        reply.Add("id name starter-csharp");
                        reply.Add("id author zole-arena starter");
                        reply.Add("zoleok 1");
                        break;
                    case "isready": reply.Add("readyok"); break;
                    case "newdeal": bot.NewDeal(Fields(w)); break;
                    case "bid": bot.OnBid(int.Parse(w[1]), w[2]); break;
                    case "card": bot.OnCard(int.Parse(w[1]), w[2]); break;
                    case "trick": bot.OnTrick(); break;
                    case "go":
                        var f = Fields(w);
                        string answer;
                        try { answer = bot.OnGo(f); }
                        catch (Exception e)                 // a bug of ours: still answer legally
                        {
                            Console.Error.WriteLine("starter-csharp: " + e.Message + " on: " + line);
                            var legal = ToList(Get(f, "legal", "-"));
                            answer = Get(f, "phase", "") == "bury" ? legal[0] + " " + legal[1] : legal[0];
                        }
                        reply.Add("action " + Get(f, "id", "0") + " " + answer);
                        break;
                    case "quit": output.Flush(); return 0;
                    default: break;                         // unknown messages are ignored
                }
            }
            catch (Exception e)                             // never die on a line we misread
            {
                Console.Error.WriteLine("starter-csharp: " + e.Message + " on: " + line);
            }
            foreach (string r in reply) { output.WriteLine(r); output.Flush(); } // flush each line
        }
        return 0;
    }
}
