package com.acme.auth;

import java.util.List;
import com.acme.auth.Token;
import static com.acme.util.Strings.join;
import com.acme.model.*;

public class TokenService extends BaseService implements Verifier {
    private final List<Token> tokens;

    public TokenService() {
        this.tokens = new ArrayList<>();
    }

    public boolean verify(Token t) {
        return t.expiry() > now();
    }

    enum State { VALID, EXPIRED }

    interface Listener {
        void onExpire(Token t);
    }
}
