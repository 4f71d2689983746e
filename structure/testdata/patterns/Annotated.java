package patterns;

public class Annotated {
    @GetMapping("/x") public String list() {
        return "a";
    }

    @SuppressWarnings({"unchecked", "("}) <T> T cast(Object o) {
        return (T) o;
    }

    @A("\\") public void escaped() {
    }

    @Override
    public String toString() {
        return "annotated";
    }

    @Retention(RUNTIME) @interface Inner {
    }
}
