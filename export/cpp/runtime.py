"""The fixed runtime of the C++ export, written once by hand: what the generated code calls (Python's arithmetic,
the bit intrinsics, the search budget's clock, packed tables) and the CodinGame protocol adapter. Everything
about the game's rules and the bot's decisions is generated (`export/cpp/emit.py`)."""
from __future__ import annotations

# CodinGame builds C++ without an optimisation flag, which makes this code 5 to 9 times slower: the file carries its
# own. `O3,inline,omit-frame-pointer` is as fast as -O2; POPCNT (on every x86-64 CPU since 2008) makes the bitboards'
# popcount one instruction instead of a library call, 1.7x faster again. No FMA or AVX: the floating-point results
# stay the engine's (the measurements: docs/export.md, "Its build").
BUILD = """#pragma GCC optimize("O3,inline,omit-frame-pointer")
#pragma GCC target("popcnt")
"""

INCLUDES = BUILD + """#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>
"""

HELPERS = r"""
// ---- the runtime: Python's arithmetic, the intrinsics, the clock, packed tables ----

static inline int64_t popcount(int64_t bits) { return __builtin_popcountll(static_cast<unsigned long long>(bits)); }
static inline int64_t lowest_bit(int64_t bits) { return __builtin_ctzll(static_cast<unsigned long long>(bits)); }

template <class A, class B> static inline double py_div(A a, B b) {
    return static_cast<double>(a) / static_cast<double>(b);
}
// Python's // and %: the quotient rounds toward minus infinity, the remainder takes the divisor's sign.
template <class A, class B> static inline auto py_floordiv(A a, B b) {
    using T = typename std::common_type<A, B>::type;
    if constexpr (std::is_integral<T>::value) {
        T q = static_cast<T>(a) / static_cast<T>(b);
        return (static_cast<T>(a) % static_cast<T>(b) != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    } else {
        return std::floor(static_cast<T>(a) / static_cast<T>(b));
    }
}
template <class A, class B> static inline auto py_mod(A a, B b) {
    using T = typename std::common_type<A, B>::type;
    T r;
    if constexpr (std::is_integral<T>::value) {
        r = static_cast<T>(a) % static_cast<T>(b);
    } else {
        r = std::fmod(static_cast<T>(a), static_cast<T>(b));
    }
    return (r != 0 && ((r < 0) != (b < 0))) ? r + static_cast<T>(b) : r;
}
// Python's min and max: the first argument on a tie.
template <class A, class B> static inline typename std::common_type<A, B>::type py_min(A a, B b) {
    return b < a ? b : a;
}
template <class A, class B> static inline typename std::common_type<A, B>::type py_max(A a, B b) {
    return b > a ? b : a;
}
template <class A> static inline A py_abs(A a) { return a < 0 ? -a : a; }

// A search's budget (bots/contract/budget.py): the count of work in the engine; with a time limit, the move's deadline.
static std::chrono::steady_clock::time_point DEADLINE;
static inline bool within_budget(int64_t count) {
    if (TIME_MS > 0) return std::chrono::steady_clock::now() < DEADLINE;
    return count > 0;
}

// A table written packed (export/cpp/table_pack.py): base64 of an LZ77 stream of the values' byte planes.
template <class T> static void unpack_table(T* table, size_t count, const char* text) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<unsigned char> packed, bytes;
    unsigned bits = 0, word = 0;
    for (const char* c = text; *c; ++c) {
        word = (word << 6) | static_cast<unsigned>(std::strchr(digits, *c) - digits);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            packed.push_back(static_cast<unsigned char>(word >> bits));
            word &= (1u << bits) - 1;
        }
    }
    for (size_t i = 0; i < packed.size();) {
        unsigned token = packed[i++];
        if (token < 128) {
            bytes.insert(bytes.end(), packed.begin() + i, packed.begin() + i + token + 1);
            i += token + 1;
        } else {
            size_t distance = packed[i] | packed[i + 1] << 8;
            i += 2;
            for (unsigned k = 0; k < token - 124; ++k) bytes.push_back(bytes[bytes.size() - distance]);
        }
    }
    for (size_t i = 0; i < count; ++i) {
        uint64_t value = 0;
        for (size_t b = 0; b < 8; ++b) value |= static_cast<uint64_t>(bytes[b * count + i]) << (8 * b);
        std::memcpy(&table[i], &value, sizeof value);
    }
}
"""

ADAPTER = r"""
// ---- the CodinGame protocol ----

static Map MAP;
static State STATE;
static Seat SEAT;

REPORT_STATS

// The league of this game, from its first turn: each league starts with its own number of trees. The policy then
// plays that league's rules, whatever league it was exported for.
static int64_t league_played(int64_t trees) {
    for (const auto& rule : LEAGUE_RULES) {
        if (rule[5] == trees) return rule[0];
    }
    return LEAGUE;
}

static void set_league(int64_t league, const int64_t* richness) {
    MAP.league = league;
    for (const auto& rule : LEAGUE_RULES) {
        if (rule[0] == league) {
            MAP.max_days = rule[1];
            MAP.can_grow = rule[2];
            MAP.can_seed = rule[3];
            MAP.shadows = rule[4];
        }
    }
    for (int64_t cell = 0; cell < CELL_COUNT; ++cell) {
        MAP.richness[cell] = richness[cell];
        MAP.by_richness[richness[cell]] |= int64_t(1) << cell;
    }
}

static std::string answer_text(const std::tuple<int64_t, int64_t, int64_t>& move) {
    int64_t kind = std::get<0>(move), a = std::get<1>(move), b = std::get<2>(move);
    if (kind == SEED_KIND) return "SEED " + std::to_string(a) + " " + std::to_string(b);
    if (kind == GROW_KIND) return "GROW " + std::to_string(a);
    if (kind == COMPLETE_KIND) return "COMPLETE " + std::to_string(a);
    return "WAIT";
}

int main() {
    std::ios::sync_with_stdio(false);
    unpack_tables();
    for (size_t i = 0; i < PARAMS.size(); ++i) SEAT.params[i] = PARAMS[i];
    int64_t cells = 0;
    if (!(std::cin >> cells)) return 0;  // no game: nothing to answer
    int64_t richness[CELL_COUNT] = {};
    for (int64_t i = 0; i < cells; ++i) {
        int64_t index = 0, rich = 0, neighbour = 0;
        std::cin >> index >> rich;
        for (int d = 0; d < 6; ++d) std::cin >> neighbour;
        if (index >= 0 && index < CELL_COUNT) richness[index] = rich;
    }
    bool first = true;
    int64_t day = 0;
    while (std::cin >> day) {
        DEADLINE = std::chrono::steady_clock::now() + std::chrono::milliseconds(first ? FIRST_TURN_MS : TIME_MS);
        State& s = STATE;
        s = State{};
        s.day = day;
        std::cin >> s.nutrients >> s.sun[0] >> s.score[0] >> s.sun[1] >> s.score[1] >> s.waiting[1];
        s.active[0] = s.active[1] = 1;
        int64_t trees = 0;
        std::cin >> trees;
        for (int64_t i = 0; i < trees; ++i) {
            int64_t cell = 0, size = 0, is_mine = 0, is_dormant = 0;
            std::cin >> cell >> size >> is_mine >> is_dormant;
            s.trees[size] |= int64_t(1) << cell;
            s.mine[is_mine ? 0 : 1] |= int64_t(1) << cell;
            if (is_dormant) s.dormant |= int64_t(1) << cell;
        }
        if (first) set_league(league_played(trees), richness);
        int64_t count = 0;
        std::cin >> count;
        std::string line;
        std::getline(std::cin, line);
        std::vector<std::string> possible;
        for (int64_t i = 0; i < count && std::getline(std::cin, line); ++i) {
            while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
            possible.push_back(line);
        }
        std::string answer = answer_text(ENTRY(MAP, STATE, 0, SEAT));
        if (answer != "WAIT" && std::find(possible.begin(), possible.end(), answer) == possible.end()) {
            std::cerr << "not a possible move here: " << answer << std::endl;  // never an action the league refuses
            answer = "WAIT";
        }
        std::cout << answer << std::endl;
        report_stats();
        first = false;
    }
    return 0;
}
"""
