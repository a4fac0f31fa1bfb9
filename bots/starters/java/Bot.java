// starter-java: a small, stateful Zole bot for zole-arena (protocol v1).
// Build: javac -d build Bot.java      Run: java -cp build Bot
// It reads the arena's lines on stdin and answers on stdout; debugging goes to stderr only.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class Bot {
    // ---- Cards -------------------------------------------------------------------------
    // Trumps, strongest first. Every queen, jack and diamond is a trump.
    static final List<String> TRUMPS = List.of(
            "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D");
    static final String PLAIN_RANKS = "789KTA"; // plain suits, weakest first

    static boolean isTrump(String c) {
        return c.charAt(0) == 'Q' || c.charAt(0) == 'J' || c.charAt(1) == 'D';
    }

    // One scale for every card: any trump (87..100) beats any plain card (1..6).
    static int strength(String c) {
        return isTrump(c) ? 100 - TRUMPS.indexOf(c) : 1 + PLAIN_RANKS.indexOf(c.charAt(0));
    }

    static int points(String c) {
        switch (c.charAt(0)) {
            case 'A': return 11;
            case 'T': return 10;
            case 'K': return 4;
            case 'Q': return 3;
            case 'J': return 2;
            default: return 0;
        }
    }

    // Does card c, played after best (the trick's winner so far), take the trick from it?
    static boolean beats(String c, String best) {
        if (isTrump(c) != isTrump(best)) return isTrump(c);
        if (isTrump(c)) return strength(c) > strength(best);
        return c.charAt(1) == best.charAt(1) && strength(c) > strength(best);
    }

    // First card of the list that is smallest by the comparator (ties: the earlier one).
    static String minBy(List<String> cards, Comparator<String> cmp) {
        String best = null;
        for (String c : cards) if (best == null || cmp.compare(c, best) < 0) best = c;
        return best;
    }

    static final Comparator<String> WEAKEST = Comparator.comparingInt(Bot::strength);
    static final Comparator<String> CHEAPEST =
            Comparator.comparingInt(Bot::points).thenComparingInt(Bot::strength);

    static List<String> list(String field) {
        return field == null || field.equals("-") ? new ArrayList<>()
                : new ArrayList<>(Arrays.asList(field.split(",")));
    }

    // ---- The deal's state, kept from the arena's messages --------------------------------
    int seat = -1, soloist = -1;
    String contract = "-", allPass = "table";
    List<String> hand = new ArrayList<>(), buried = new ArrayList<>();
    List<String> bids = new ArrayList<>();
    Set<String> played = new HashSet<>();
    List<Integer> trickSeats = new ArrayList<>();  // the cards of the trick in progress
    List<String> trickCards = new ArrayList<>();

    void newDeal(Map<String, String> f) {           // every deal starts from scratch
        seat = Integer.parseInt(f.getOrDefault("seat", "-1"));
        hand = list(f.get("hand"));
        allPass = f.getOrDefault("allpass", "table");
        contract = "-";
        soloist = -1;
        buried.clear(); bids.clear(); played.clear(); trickSeats.clear(); trickCards.clear();
    }

    void onBid(int who, String bid) {
        bids.add(bid);
        if (!bid.equals("pass")) { contract = bid; soloist = who; }
        else if (bids.size() == 3 && soloist < 0) contract = allPass; // "table" or "pule"
    }

    void onCard(int who, String card) {
        played.add(card);
        trickSeats.add(who);
        trickCards.add(card);
        if (who == seat) hand.remove(card);
    }

    void onTrick() { trickSeats.clear(); trickCards.clear(); }

    // ---- Decisions ---------------------------------------------------------------------
    // Stronger: weigh aces and voids, the seat (forehand leads first), the score.
    String chooseBid(List<String> legal) {
        int trumps = 0, queens = 0;
        for (String c : hand) {
            if (isTrump(c)) trumps++;
            if (c.charAt(0) == 'Q') queens++;
        }
        if (legal.contains("zole") && (trumps >= 7 || (trumps >= 6 && queens >= 3))) return "zole";
        if (legal.contains("take") && (trumps >= 6 || (trumps >= 5 && queens >= 2))) return "take";
        return legal.contains("pass") ? "pass" : legal.get(0);
    }

    // Bury the two non-trumps worth most (ties: shorter suit first, to make a void);
    // the weakest trumps fill in. Stronger: keep a guarded ten, void a suit on purpose.
    List<String> chooseBury(List<String> cards) {
        Map<Character, Integer> suitLength = new HashMap<>();
        for (String c : cards) if (!isTrump(c)) suitLength.merge(c.charAt(1), 1, Integer::sum);
        List<String> order = new ArrayList<>(cards);
        order.sort(Comparator.comparing((String c) -> isTrump(c))          // non-trumps first
                .thenComparing(c -> isTrump(c) ? 0 : -points(c))           // most points
                .thenComparing(c -> isTrump(c) ? 0 : suitLength.get(c.charAt(1))) // shorter suit
                .thenComparingInt(Bot::strength));                         // weakest (trumps)
        return order.subList(0, 2);
    }

    String choosePlay(List<String> legal) {
        boolean table = contract.equals("table");
        boolean soloing = seat == soloist;
        if (trickCards.isEmpty()) {                      // leading
            if (table) return minBy(legal, WEAKEST);
            if (soloing) return soloistLead(legal);
            for (String c : legal) if (c.charAt(0) == 'A' && !isTrump(c)) return c; // a plain ace
            return minBy(legal, CHEAPEST);
        }
        int winner = trickSeats.get(0);                  // who is winning the trick so far
        String best = trickCards.get(0);
        for (int i = 1; i < trickCards.size(); i++)
            if (beats(trickCards.get(i), best)) { best = trickCards.get(i); winner = trickSeats.get(i); }
        final String top = best;
        if (table) {                                     // stay under the winner if we can
            List<String> under = new ArrayList<>();
            for (String c : legal) if (!beats(c, top)) under.add(c);
            return under.isEmpty() ? minBy(legal, WEAKEST) : minBy(under, WEAKEST.reversed());
        }
        boolean partnerWins = !soloing && winner != soloist && winner != seat;
        if (partnerWins && trickCards.size() == 2)       // we play last: give the most points
            return minBy(legal, Comparator.comparingInt((String c) -> -points(c)).thenComparing(WEAKEST));
        // Stronger: as second player, think about what the third player still holds.
        List<String> winners = new ArrayList<>();
        for (String c : legal) if (beats(c, top)) winners.add(c);
        return minBy(winners.isEmpty() ? legal : winners, CHEAPEST);
    }

    // Soloist on lead: cash a trump that cannot be beaten, else draw with the lowest trump.
    String soloistLead(List<String> legal) {
        List<String> trumps = new ArrayList<>();
        for (String c : legal) if (isTrump(c)) trumps.add(c);
        if (trumps.isEmpty())
            return minBy(legal, Comparator.comparingInt((String c) -> -points(c)));
        String high = minBy(trumps, WEAKEST.reversed());
        for (String t : TRUMPS) {                        // strongest first
            if (t.equals(high)) return high;             // no stronger trump is still out
            if (!played.contains(t) && !hand.contains(t) && !buried.contains(t)) break;
        }
        return minBy(trumps, WEAKEST);
    }

    // ---- Protocol --------------------------------------------------------------------
    String onGo(Map<String, String> f) {
        List<String> legal = list(f.get("legal"));
        String phase = f.getOrDefault("phase", "");
        if (phase.equals("bid")) return chooseBid(legal);
        if (phase.equals("bury")) {
            List<String> two = chooseBury(legal);
            hand = new ArrayList<>(legal);
            hand.removeAll(two);
            buried = new ArrayList<>(two);
            return two.get(0) + " " + two.get(1);
        }
        if (!hand.containsAll(legal)) {                 // our state disagrees: trust the arena
            System.err.println("starter-java: resyncing hand from go");
            hand = list(f.get("hand"));
            buried = list(f.get("buried"));
        }
        return choosePlay(legal);
    }

    static Map<String, String> fields(String[] w) { // "key value key value ..." after the name
        Map<String, String> f = new HashMap<>();
        for (int i = 1; i + 1 < w.length; i += 2) f.put(w[i], w[i + 1]);
        return f;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        // Our own buffered writer: every line must be flushed, or the arena waits for it.
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII));
        Bot bot = new Bot();
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("[ \t]+");
            List<String> reply = new ArrayList<>();
            try {
                switch (w[0]) {
                    case "zole" -> reply.addAll(List.of(
                            "id name starter-java", "id author zole-arena starter", "zoleok 1"));
                    case "isready" -> reply.add("readyok");
                    case "newdeal" -> bot.newDeal(fields(w));
                    case "bid" -> bot.onBid(Integer.parseInt(w[1]), w[2]);
                    case "card" -> bot.onCard(Integer.parseInt(w[1]), w[2]);
                    case "trick" -> bot.onTrick();
                    case "go" -> {
                        Map<String, String> f = fields(w);
                        String answer;
                        try {
                            answer = bot.onGo(f);
                        } catch (RuntimeException e) {  // a bug of ours: still answer legally
                            System.err.println("starter-java: " + e + " on: " + line);
                            List<String> legal = list(f.get("legal"));
                            answer = f.get("phase").equals("bury") ? legal.get(0) + " " + legal.get(1) : legal.get(0);
                        }
                        reply.add("action " + f.get("id") + " " + answer);
                    }
                    case "quit" -> { out.flush(); System.exit(0); }
                    default -> { }                       // unknown messages are ignored
                }
            } catch (RuntimeException e) {              // never die on a line we misread
                System.err.println("starter-java: " + e + " on: " + line);
            }
            for (String r : reply) { out.write(r); out.write('\n'); out.flush(); } // flush each line
        }
    }
}
