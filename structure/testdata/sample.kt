package com.acme.auth

import com.acme.util.Clock
import com.acme.model.*

interface Verifier {
    fun verify(token: String): Boolean
}

class TokenService(val ttl: Int) : Verifier {
    val name = "tokens"

    override fun verify(token: String): Boolean {
        val now = Clock.now()
        return check(token, now)
    }

    companion object Factory {
        fun create(): TokenService = TokenService(3600)
    }
}

enum class State { VALID, EXPIRED }

fun main() {
    println(TokenService.create())
}
