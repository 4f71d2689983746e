<?php
namespace App\Auth;

use App\Models\User;
use App\Support\Clock as C;
require_once 'helpers.php';

interface Verifier {
    public function verify(string $token): bool;
}

class TokenService implements Verifier {
    const TTL = 3600;
    private $tokens;

    public function verify(string $token): bool {
        $user = new User();
        return check_token($token) && $user->active();
    }
}

function helper() {
    return TokenService::make();
}
