// SPDX-License-Identifier: Apache-2.0
#include "regexrepeats.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace nanscope::detail {
namespace {

constexpr std::size_t kSaturated = std::size_t(-1);

std::size_t saturatingMultiply(std::size_t a, std::size_t b)
{
    return a != 0 && b > kSaturated / a ? kSaturated : a * b;
}

bool isDigit(char c)
{
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// A run of decimal digits at `i`, read without overflow (a run too long saturates).
struct Number
{
    std::size_t value = 0;
    std::size_t length = 0;
};

Number numberAt(std::string_view p, std::size_t i)
{
    Number n;
    while (i + n.length < p.size() && isDigit(p[i + n.length])) {
        const std::size_t digit = static_cast<std::size_t>(p[i + n.length] - '0');
        n.value = n.value > (kSaturated - digit) / 10 ? kSaturated : n.value * 10 + digit;
        ++n.length;
    }
    return n;
}

// A "{n}", "{n,}" or "{n,m}" quantifier: its length (0 when '{' is not followed by a digit, and
// is a literal), whether it is closed, and the most copies of its atom it asks for.
struct Brace
{
    std::size_t length = 0;
    bool closed = false;
    std::size_t copies = 0;
    bool unbounded = false; // "{n,}"
};

Brace braceQuantifier(std::string_view p, std::size_t at)
{
    const Number low = numberAt(p, at + 1);
    if (low.length == 0)
        return {};
    Brace brace;
    std::size_t i = at + 1 + low.length;
    brace.copies = low.value;
    if (i < p.size() && p[i] == ',') {
        const Number high = numberAt(p, ++i);
        i += high.length;
        brace.unbounded = high.length == 0;
        // "{n,}" copies the atom n times, then once more for the unbounded rest.
        brace.copies = high.length > 0 ? std::max(low.value, high.value)
                                       : (low.value == kSaturated ? kSaturated : low.value + 1);
    }
    brace.closed = i < p.size() && p[i] == '}';
    brace.length = i + (brace.closed ? 1 : 0) - at;
    return brace;
}

// Walks the pattern once, as a tree of groups whose sizes (in atoms, counts expanded) add up.
class PatternWalk
{
public:
    explicit PatternWalk(std::string_view p) : p_(p) {}

    std::optional<UnsafePattern> run()
    {
        while (i_ < p_.size()) {
            if (auto problem = step())
                return problem;
            if (expandedSize() > kMaxExpandedAtoms)
                return UnsafePattern{i_, "expands its counts to more than " +
                                             std::to_string(kMaxExpandedAtoms) + " atoms"};
        }
        return std::nullopt;
    }

private:
    enum class After { Atom, Repeat, LazyRepeat };
    struct Group
    {
        std::size_t size = 0;        // in atoms, counts expanded
        bool holdsUnbounded = false; // a '*', '+' or "{n,}" inside
    };
    struct Atom
    {
        std::size_t size = 0;
        bool holdsUnbounded = false;
    };

    static std::size_t saturatingAdd(std::size_t a, std::size_t b)
    {
        return std::min(kSaturated - b, a) + b;
    }

    std::size_t expandedSize() const
    {
        std::size_t sum = 0;
        for (const Group& g : groups_)
            sum = saturatingAdd(sum, g.size);
        return sum;
    }

    void atom(Atom a, std::size_t length)
    {
        last_ = After::Atom;
        lastAtom_ = a;
        groups_.back().size = saturatingAdd(groups_.back().size, a.size);
        i_ += length;
    }

    std::optional<UnsafePattern> quantifier(std::size_t length, std::size_t copies, bool unbounded)
    {
        const char c = p_[i_];
        if (last_ == After::Repeat && c == '?' && length == 1) {
            last_ = After::LazyRepeat;
            i_ += length;
            return std::nullopt;
        }
        const std::string at = " at offset " + std::to_string(i_);
        if (last_ != After::Atom)
            return UnsafePattern{i_, "repeats a repeat" + at +
                                         " (as Python's re, TensorFlow's filter, refuses: its "
                                         "matching time could grow exponentially)"};
        if (unbounded && lastAtom_.holdsUnbounded)
            return UnsafePattern{i_, "repeats without bound a group that holds a repeat without "
                                     "bound" +
                                         at +
                                         " (like \"(a+)+\": its matching time could "
                                         "grow exponentially)"};
        if (copies > kMaxRepeatCount)
            return UnsafePattern{i_, "repeats an atom more than " +
                                         std::to_string(kMaxRepeatCount) + " times" + at};
        last_ = After::Repeat;
        // The atom is counted once already; the count adds its other copies.
        const std::size_t more = saturatingMultiply(lastAtom_.size, copies == 0 ? 0 : copies - 1);
        groups_.back().size = saturatingAdd(groups_.back().size, more);
        groups_.back().holdsUnbounded = groups_.back().holdsUnbounded || unbounded;
        i_ += length;
        return std::nullopt;
    }

    std::optional<UnsafePattern> step()
    {
        const char c = p_[i_];
        if (c == '*' || c == '+')
            return quantifier(1, 1, true);
        if (c == '?')
            return quantifier(1, 1, false);
        if (c == '{') {
            const Brace brace = braceQuantifier(p_, i_);
            // libstdc++ reads the count before it sees that the brace is not closed (its own
            // error), so a count too large is refused either way.
            if (brace.length > 0 && (brace.closed || brace.copies > kMaxRepeatCount))
                return quantifier(brace.length, brace.copies, brace.unbounded);
        }
        if (c == '\\') {
            const Number reference = numberAt(p_, i_ + 1);
            // "\0" is the null character; "\1"... name a group.
            if (reference.length > 0 && p_[i_ + 1] != '0' && reference.value > kMaxBackreference)
                return UnsafePattern{
                    i_, "refers to group " + std::string(p_.substr(i_ + 1, reference.length)) +
                            " at offset " + std::to_string(i_) + " (at most " +
                            std::to_string(kMaxBackreference) + " groups can be referred to)"};
            atom({1, false}, 1 + std::max<std::size_t>(reference.length, 1));
        } else if (c == '[') {
            // A class is one atom: skip to its closing ']' (in ECMAScript "[]" is an empty class).
            std::size_t j = i_ + 1;
            while (j < p_.size() && p_[j] != ']')
                j += p_[j] == '\\' ? 2 : 1;
            atom({1, false}, j + 1 - i_);
        } else if (c == '(') {
            // '(' counts as an atom for the repeat check: a quantifier after it is std::regex's
            // own error. "(?:", "(?=" and "(?!" open groups like '('.
            const bool marked = i_ + 2 < p_.size() && p_[i_ + 1] == '?' &&
                                (p_[i_ + 2] == ':' || p_[i_ + 2] == '=' || p_[i_ + 2] == '!');
            groups_.push_back({});
            last_ = After::Atom;
            lastAtom_ = {};
            i_ += marked ? 3 : 1;
        } else if (c == ')' && groups_.size() > 1) {
            const Group group = groups_.back();
            groups_.pop_back();
            atom({std::max<std::size_t>(group.size, 1), group.holdsUnbounded}, 1);
            groups_.back().holdsUnbounded = groups_.back().holdsUnbounded || group.holdsUnbounded;
        } else {
            atom({1, false}, 1); // '|' and an unmatched ')' too: std::regex judges those
        }
        return std::nullopt;
    }

    std::string_view p_;
    std::size_t i_ = 0;
    After last_ = After::Atom;
    Atom lastAtom_;
    std::vector<Group> groups_{Group{}}; // the groups open at i_, outermost first
};

} // namespace

std::optional<UnsafePattern> unsafeRepeat(std::string_view pattern)
{
    return PatternWalk(pattern).run();
}

} // namespace nanscope::detail
