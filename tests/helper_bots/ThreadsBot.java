import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An honest bot on the JVM that thinks in threads: at each "go" four pool threads count to a
 * total under a contended monitor (synchronized) and an AtomicInteger, then it answers with a
 * random legal action and writes "WORKED synchronized=N atomic=N" to stderr.
 */
public final class ThreadsBot {
    private static final int COUNT = 20000;
    private static final int THREADS = 4;
    private static int locked = 0;

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "US-ASCII"));
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        Random rng = new Random();
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words.length == 0 || words[0].isEmpty()) {
                continue;
            }
            if (words[0].equals("zole")) {
                System.out.print("id name jvm-threads\nzoleok 1\n");
                System.out.flush();
            } else if (words[0].equals("isready")) {
                System.out.print("readyok\n");
                System.out.flush();
            } else if (words[0].equals("go")) {
                Map<String, String> fields = new HashMap<>();
                for (int i = 1; i + 1 < words.length; i += 2) {
                    fields.put(words[i], words[i + 1]);
                }
                locked = 0;
                AtomicInteger atomic = new AtomicInteger();
                Object monitor = new Object();
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < COUNT; i++) {
                            synchronized (monitor) {
                                locked++;
                            }
                            atomic.incrementAndGet();
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                System.err.println("WORKED synchronized=" + locked + " atomic=" + atomic.get());
                String[] legal = fields.get("legal").split(",");
                String answer;
                if (fields.get("phase").equals("bury")) {
                    int a = rng.nextInt(legal.length);
                    int b = (a + 1 + rng.nextInt(legal.length - 1)) % legal.length;
                    answer = legal[a] + " " + legal[b];
                } else {
                    answer = legal[rng.nextInt(legal.length)];
                }
                System.out.print("action " + fields.get("id") + " " + answer + "\n");
                System.out.flush();
            } else if (words[0].equals("quit")) {
                break;
            }
        }
        pool.shutdownNow();
    }
}
