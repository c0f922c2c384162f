// Generates timsort.jsonl: orders produced by java.util.List.sort (TimSort) for comparators
// over double values that may be NaN or infinite, compared as Hadoop 2.7 compares ratios:
// (int) Math.signum(v[a] - v[b]), then optionally the index as a final tie-break.
// Run: java TimSortGolden.java > timsort.jsonl
import java.util.*;

public class TimSortGolden {
    public static void main(String[] args) {
        Random rnd = new Random(20261123L);
        double[] pool = {0.0, 1.0, 2.0, 3.0, 0.5, Double.NaN, Double.POSITIVE_INFINITY, 7.25, 10.0};
        StringBuilder out = new StringBuilder();
        for (int c = 0; c < 400; c++) {
            int n = 2 + rnd.nextInt(c % 4 == 0 ? 1200 : 300);
            double nanRate = (c % 3) * 0.02;
            boolean tieByIndex = c % 2 == 0;
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                if (rnd.nextDouble() < nanRate) v[i] = Double.NaN;
                else if (c % 5 == 0) v[i] = pool[rnd.nextInt(pool.length)];
                else v[i] = rnd.nextInt(Math.max(2, n / (1 + c % 7)));
            }
            if (c % 6 == 1) { Arrays.sort(v, 0, n / 2); }
            List<Integer> idx = new ArrayList<>();
            for (int i = 0; i < n; i++) idx.add(i);
            final double[] vals = v;
            String result;
            try {
                idx.sort((a, b) -> {
                    int r = (int) Math.signum(vals[a] - vals[b]);
                    if (r == 0 && tieByIndex) r = Integer.compare(a, b);
                    return r;
                });
                StringBuilder o = new StringBuilder("[");
                for (int i = 0; i < n; i++) { if (i > 0) o.append(','); o.append(idx.get(i)); }
                result = "\"order\":" + o.append(']');
            } catch (IllegalArgumentException e) {
                result = "\"error\":\"contract\"";
            }
            StringBuilder vs = new StringBuilder("[");
            for (int i = 0; i < n; i++) {
                if (i > 0) vs.append(',');
                if (Double.isNaN(v[i])) vs.append("\"NaN\"");
                else if (Double.isInfinite(v[i])) vs.append("\"inf\"");
                else vs.append(v[i]);
            }
            out.append("{\"tie_by_index\":").append(tieByIndex).append(",\"values\":").append(vs.append(']'))
               .append(',').append(result).append("}\n");
        }
        System.out.print(out);
    }
}
