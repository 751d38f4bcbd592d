// loopnest_mfc::compile_expression: MFC's analytic patch values, e.g.
// 'patch_icpp(2)%alpha_rho(1)': '1 + 0.2*sin(5*x)', parsed once on the host into a fixed-size
// program of doubles that is then evaluated per cell, on the host or captured by a device lambda
// (no recursion, no containers, no calls out of the program's own operations).
//
// The language is the one MFC's toolchain accepts (toolchain/mfc/analytic_expr.py, which parses
// the string as Python and writes it out as Fortran into pre_process): numbers, + - * /, ** (Python
// and Fortran's power, right-associative and binding tighter than a unary minus on its left:
// -x**2 is -(x**2), 2**-1 is 2**(-1)), unary + and -, parentheses, its intrinsics and its names
// (x, y, z, the patch's xc yc zc lx ly lz r, and pi). Python's ^ is not a power there, and is
// refused. Fortran's 1.d0 (which the older, regex-based toolchain passed through) is accepted too.
//
// The arithmetic is that of the Fortran MFC generates, compiled as MFC compiles it (gfortran or
// nvfortran, without -fdefault-real-8): each literal keeps its Fortran kind, and a subexpression
// of literals alone is computed in that kind, as the compiler folds it.
// - 5 is an integer: 1/2 is 0, 7/2 is 3 (Fortran's integer division).
// - 0.2 (and 1e5, 1e-3) is a default real, single precision: the toolchain writes Python's repr of
//   the value, which has no exponent between 1e-4 and 1e16, so 0.2 becomes 0.2f widened
//   (0.20000000298023224) when it meets a double. A value whose repr has an exponent (1e-05,
//   1e+16) gets _wp, and 1.d0 is a double: both are doubles.
// - x, y, z (pre_process's cell centre), the patch's parameters and pi (m_constants) are doubles.
// - Integer and single operands are widened to double where they meet a double, after being
//   folded in their own kind; every other operation is in double, each rounded once, in the
//   order the expression gives: + - * / left-associative, ** right-associative.
// - A ** n with an integer exponent n is computed as libgcc's __powidf2 computes it (square and
//   multiply from the lowest bit; 1/that for n < 0): the same bits as gfortran's inline
//   multiplications for |n| <= 4, the powers MFC's examples use; a non-integer exponent is pow.
// Not reproduced: the multiply-adds a compiler may fuse (-march=native with FMA, nvfortran's
// default), a last-bit difference.
#ifndef LOOPNEST_MFC_EXPRESSION_HPP
#define LOOPNEST_MFC_EXPRESSION_HPP

#include <loopnest/kokkos_compat.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace loopnest_mfc {

// A refused expression: what is wrong, at which column (1-based) and which token.
struct expression_error : std::runtime_error {
  int column;
  std::string token;
  expression_error(const std::string& what, int column_, std::string token_)
      : std::runtime_error("column " + std::to_string(column_) + ": " + what),
        column(column_),
        token(std::move(token_)) {}
};

enum class expression_op : unsigned char {
  constant,
  x,
  y,
  z,
  add,
  sub,
  mul,
  div,
  neg,
  power_int,
  power,
  sin,
  cos,
  tan,
  asin,
  acos,
  atan,
  atan2,
  sinh,
  cosh,
  tanh,
  exp,
  log,
  log10,
  sqrt,
  abs,
  min,
  max,
  mod,
  sign
};

struct expression_instruction {
  double value     = 0.0;  // constant: the value
  int exponent     = 0;    // power_int: the integer exponent
  expression_op op = expression_op::constant;
};

namespace detail {

// Kokkos keeps its math functions in Kokkos::Experimental up to 3.x and in Kokkos from 4.0.
#if KOKKOS_VERSION >= 40000
namespace expression_math = ::Kokkos;
#else
namespace expression_math = ::Kokkos::Experimental;
#endif

// libgcc's __powidf2 (and __powisf2 for float): what gfortran calls for a real to an integer
// power.
template <class T>
KOKKOS_INLINE_FUNCTION T power_int(T x, int m) {
  unsigned n = m < 0 ? 0U - static_cast<unsigned>(m) : static_cast<unsigned>(m);
  T y        = n % 2 != 0 ? x : T(1);
  while ((n >>= 1) != 0) {
    x = x * x;
    if (n % 2 != 0) {
      y = y * x;
    }
  }
  return m < 0 ? T(1) / y : y;
}

}  // namespace detail

// A compiled expression of the cell centre (x, y, z): postfix instructions on a stack of doubles,
// trivially copyable, of fixed size.
struct expression_program {
  static constexpr int max_instructions = 128;
  static constexpr int max_stack        = 32;

  expression_instruction code[max_instructions];
  int size = 0;

  // The expression's value at (x, y, z).
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const {
    namespace m             = detail::expression_math;
    double stack[max_stack] = {};
    int top                 = -1;  // the stack's last value
    for (int k = 0; k < size; ++k) {
      const expression_instruction& in = code[k];
      double& a                        = stack[top < 0 ? 0 : top];
      const double b                   = a;  // the second operand of a binary operation
      double* const left               = top > 0 ? &stack[top - 1] : &stack[0];
      switch (in.op) {
        case expression_op::constant:
          stack[++top] = in.value;
          break;
        case expression_op::x:
          stack[++top] = x;
          break;
        case expression_op::y:
          stack[++top] = y;
          break;
        case expression_op::z:
          stack[++top] = z;
          break;
        case expression_op::add:
          *left = *left + b, --top;
          break;
        case expression_op::sub:
          *left = *left - b, --top;
          break;
        case expression_op::mul:
          *left = *left * b, --top;
          break;
        case expression_op::div:
          *left = *left / b, --top;
          break;
        case expression_op::power:
          *left = m::pow(*left, b), --top;
          break;
        case expression_op::atan2:
          *left = m::atan2(*left, b), --top;
          break;
        // Fortran's MIN and MAX as gfortran computes them: the first argument unless the second
        // is strictly smaller (larger).
        case expression_op::min:
          *left = b < *left ? b : *left, --top;
          break;
        case expression_op::max:
          *left = b > *left ? b : *left, --top;
          break;
        case expression_op::mod:
          *left = m::fmod(*left, b), --top;
          break;
        case expression_op::sign:
          *left = loopnest::copysign(m::fabs(*left), b), --top;
          break;
        case expression_op::neg:
          a = -a;
          break;
        case expression_op::power_int:
          a = detail::power_int(a, in.exponent);
          break;
        case expression_op::sin:
          a = m::sin(a);
          break;
        case expression_op::cos:
          a = m::cos(a);
          break;
        case expression_op::tan:
          a = m::tan(a);
          break;
        case expression_op::asin:
          a = m::asin(a);
          break;
        case expression_op::acos:
          a = m::acos(a);
          break;
        case expression_op::atan:
          a = m::atan(a);
          break;
        case expression_op::sinh:
          a = m::sinh(a);
          break;
        case expression_op::cosh:
          a = m::cosh(a);
          break;
        case expression_op::tanh:
          a = m::tanh(a);
          break;
        case expression_op::exp:
          a = m::exp(a);
          break;
        case expression_op::log:
          a = m::log(a);
          break;
        case expression_op::log10:
          a = m::log10(a);
          break;
        case expression_op::sqrt:
          a = m::sqrt(a);
          break;
        case expression_op::abs:
          a = m::fabs(a);
          break;
      }
    }
    return stack[0];
  }
};

// What the names of an expression stand for: the case's dimensions (x, y, z exist up to
// num_dims) and the patch's parameters, NaN where the patch has none.
struct expression_names {
  int num_dims       = 3;
  double centroid[3] = {std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::quiet_NaN()};
  double length[3]   = {std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::quiet_NaN()};
  double radius      = std::numeric_limits<double>::quiet_NaN();
};

namespace detail {

// A value while parsing: a constant of a Fortran kind (folded on the host, as the compiler folds
// it), or code that computes a double.
struct expression_operand {
  enum class kind { integer, single, real } type = kind::real;
  bool constant                                  = false;
  long long integer                              = 0;
  double value                                   = 0.0;  // single: a float's value, exactly
  std::vector<expression_instruction> code;
  int column = 1;
};

struct expression_token {
  enum class kind { number, name, op, end } type = kind::end;
  std::string text;
  int column = 1;
};

class expression_parser {
 public:
  expression_parser(const std::string& text, const expression_names& names)
      : m_text(text), m_names(names) {
    tokenize();
  }

  expression_program compile() {
    if (m_tokens.size() == 1) {
      fail("the expression is empty", m_tokens[0]);
    }
    expression_operand e = additive();
    if (peek().type != expression_token::kind::end) {
      fail("'" + peek().text + "' follows a complete expression", peek());
    }
    materialize(e);
    return program_of(e);
  }

 private:
  using operand = expression_operand;
  using kind    = expression_operand::kind;
  using token   = expression_token;

  static constexpr int max_depth = 64;

  const std::string& m_text;
  const expression_names& m_names;
  std::vector<token> m_tokens;
  std::size_t m_next = 0;
  int m_depth        = 0;

  [[noreturn]] static void fail(const std::string& what, const token& at) {
    throw expression_error(what, at.column, at.type == token::kind::end ? "" : at.text);
  }
  [[noreturn]] static void fail_at(const std::string& what, int column, const std::string& text) {
    throw expression_error(what, column, text);
  }

  const token& peek() const { return m_tokens[m_next]; }
  bool peek_op(const char* op) const { return peek().type == token::kind::op && peek().text == op; }
  token take() { return m_tokens[m_next++]; }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  static bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  void tokenize() {
    const std::string& s = m_text;
    std::size_t k        = 0;
    while (k < s.size()) {
      const char c     = s[k];
      const int column = static_cast<int>(k) + 1;
      if (c == ' ' || c == '\t') {
        ++k;
      } else if (is_digit(c) || (c == '.' && k + 1 < s.size() && is_digit(s[k + 1]))) {
        std::size_t end = k;
        while (end < s.size() && is_digit(s[end])) {
          ++end;
        }
        if (end < s.size() && s[end] == '.') {
          ++end;
          while (end < s.size() && is_digit(s[end])) {
            ++end;
          }
        }
        if (end < s.size() && (s[end] == 'e' || s[end] == 'E' || s[end] == 'd' || s[end] == 'D')) {
          std::size_t digits = end + 1;
          if (digits < s.size() && (s[digits] == '+' || s[digits] == '-')) {
            ++digits;
          }
          if (digits >= s.size() || !is_digit(s[digits])) {
            fail_at("the number's exponent has no digits", column, s.substr(k, digits - k));
          }
          end = digits;
          while (end < s.size() && is_digit(s[end])) {
            ++end;
          }
        }
        if (end < s.size() && (is_name_start(s[end]) || is_digit(s[end]) || s[end] == '.')) {
          std::size_t bad = end;
          while (bad < s.size() && (is_name_start(s[bad]) || is_digit(s[bad]) || s[bad] == '.')) {
            ++bad;
          }
          fail_at("'" + s.substr(k, bad - k) + "' is not a number", column, s.substr(k, bad - k));
        }
        m_tokens.push_back({token::kind::number, s.substr(k, end - k), column});
        k = end;
      } else if (is_name_start(c)) {
        std::size_t end = k;
        while (end < s.size() && (is_name_start(s[end]) || is_digit(s[end]))) {
          ++end;
        }
        m_tokens.push_back({token::kind::name, s.substr(k, end - k), column});
        k = end;
      } else if (c == '*' && k + 1 < s.size() && s[k + 1] == '*') {
        m_tokens.push_back({token::kind::op, "**", column});
        k += 2;
      } else if (c == '/' && k + 1 < s.size() && s[k + 1] == '/') {
        fail_at("'//' (Python's floor division) is not an operator of MFC's expressions", column,
                "//");
      } else if (c == '+' || c == '-' || c == '*' || c == '/' || c == '(' || c == ')' || c == ',') {
        m_tokens.push_back({token::kind::op, std::string(1, c), column});
        ++k;
      } else if (c == '^') {
        fail_at("'^' is not a power in MFC's expressions (Python's exclusive or): write **", column,
                "^");
      } else if (c == '%') {
        fail_at("'%' is not an operator of MFC's expressions: write mod(a, p)", column, "%");
      } else {
        const auto byte = static_cast<unsigned char>(c);
        char shown[8]   = {c, '\0'};
        if (byte < 0x20 || byte >= 0x7f) {
          std::snprintf(shown, sizeof(shown), "\\x%02x", static_cast<unsigned>(byte));
        }
        fail_at(std::string("unexpected character '") + shown + "'", column, shown);
      }
    }
    m_tokens.push_back({token::kind::end, "", static_cast<int>(s.size()) + 1});
  }

  // A token's text for a message, or "the end of the expression".
  static std::string found(const token& t) {
    return t.type == token::kind::end ? "the end of the expression" : "'" + t.text + "'";
  }

  void enter(const token& at) {
    if (++m_depth > max_depth) {
      fail("the expression nests deeper than " + std::to_string(max_depth) + " levels", at);
    }
  }

  // additive: term (('+' | '-') term)*, left-associative.
  // NOLINTNEXTLINE(misc-no-recursion): nesting is bounded by max_depth.
  operand additive() {
    operand left = term();
    while (peek_op("+") || peek_op("-")) {
      const token op = take();
      left = binary(op.text == "+" ? expression_op::add : expression_op::sub, left, term(), op);
    }
    return left;
  }

  // term: factor (('*' | '/') factor)*, left-associative.
  // NOLINTNEXTLINE(misc-no-recursion): nesting is bounded by max_depth.
  operand term() {
    operand left = factor();
    while (peek_op("*") || peek_op("/")) {
      const token op = take();
      left = binary(op.text == "*" ? expression_op::mul : expression_op::div, left, factor(), op);
    }
    return left;
  }

  // factor: ('+' | '-') factor | power (Python's u_expr).
  // NOLINTNEXTLINE(misc-no-recursion): nesting is bounded by max_depth.
  operand factor() {
    if (peek_op("+") || peek_op("-")) {
      const token op = take();
      enter(op);
      operand v = factor();
      --m_depth;
      if (op.text == "-") {
        negate(v);
      }
      v.column = op.column;
      return v;
    }
    return power();
  }

  // power: primary ['**' factor], right-associative.
  // NOLINTNEXTLINE(misc-no-recursion): nesting is bounded by max_depth.
  operand power() {
    operand base = primary();
    if (peek_op("**")) {
      const token op = take();
      enter(op);
      operand exponent = factor();
      --m_depth;
      return binary(expression_op::power, base, exponent, op);
    }
    return base;
  }

  // NOLINTNEXTLINE(misc-no-recursion): nesting is bounded by max_depth.
  operand primary() {
    const token t = take();
    if (t.type == token::kind::number) {
      return number(t);
    }
    if (t.type == token::kind::name) {
      if (peek_op("(")) {
        return call(t);
      }
      return name(t);
    }
    if (t.type == token::kind::op && t.text == "(") {
      enter(t);
      operand inner = additive();
      --m_depth;
      if (!peek_op(")")) {
        fail("expected ')' to close the '(' at column " + std::to_string(t.column) + ", found " +
                 found(peek()),
             peek());
      }
      take();
      inner.column = t.column;
      return inner;
    }
    fail("expected a number, a name or '(', found " + found(t), t);
  }

  operand number(const token& t) {
    operand v;
    v.constant                = true;
    v.column                  = t.column;
    std::string text          = t.text;
    const std::size_t exp     = text.find_first_of("eEdD");
    const bool fortran_double = exp != std::string::npos && (text[exp] == 'd' || text[exp] == 'D');
    if (fortran_double) {
      text[exp] = 'e';
    }
    if (text.find_first_of(".eE") == std::string::npos) {
      // A Python int, a Fortran default integer.
      const double magnitude = std::strtod(text.c_str(), nullptr);
      if (magnitude > 2147483647.0) {
        fail("the integer " + t.text + " is too large for Fortran's default integer", t);
      }
      v.type    = kind::integer;
      v.integer = std::strtoll(text.c_str(), nullptr, 10);
      return v;
    }
    const double value = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(value)) {
      fail("the number " + t.text + " is too large for a double", t);
    }
    // Python's repr writes an exponent below 1e-4 and from 1e16 on; the toolchain adds _wp then.
    const double magnitude = std::fabs(value);
    if (fortran_double || (value != 0.0 && (magnitude < 1e-4 || magnitude >= 1e16))) {
      v.type  = kind::real;
      v.value = value;
      return v;
    }
    v.type  = kind::single;
    v.value = std::strtof(text.c_str(), nullptr);
    return v;
  }

  operand name(const token& t) {
    const std::string& n = t.text;
    operand v;
    v.column       = t.column;
    const char* xs = "xyz";
    for (int d = 0; d < 3; ++d) {
      if (n == std::string(1, xs[d])) {
        if (d >= m_names.num_dims) {
          fail("'" + n + "' is not a coordinate of a case with " +
                   std::to_string(m_names.num_dims) + " dimension(s)",
               t);
        }
        v.code.push_back(
            {0.0, 0, static_cast<expression_op>(static_cast<int>(expression_op::x) + d)});
        return v;
      }
    }
    struct patch_name {
      const char* name;
      double value;
      const char* parameter;
    };
    const patch_name patch[] = {{"xc", m_names.centroid[0], "x_centroid"},
                                {"yc", m_names.centroid[1], "y_centroid"},
                                {"zc", m_names.centroid[2], "z_centroid"},
                                {"lx", m_names.length[0], "length_x"},
                                {"ly", m_names.length[1], "length_y"},
                                {"lz", m_names.length[2], "length_z"},
                                {"r", m_names.radius, "radius"}};
    for (const patch_name& p : patch) {
      if (n == p.name) {
        if (std::isnan(p.value)) {
          fail("'" + n + "' is the patch's " + p.parameter + ", which this patch does not have", t);
        }
        v.constant = true;
        v.value    = p.value;
        return v;
      }
    }
    if (n == "pi") {
      v.constant = true;
      v.value    = 3.141592653589793;  // m_constants: pi = 3.141592653589793_wp
      return v;
    }
    for (const char* unread : {"eps", "beta", "tau_e", "radii"}) {
      if (n == unread) {
        fail("'" + n + "' is a patch parameter MFC offers that this port does not read", t);
      }
    }
    if (function_of(n) != nullptr) {
      fail("'" + n + "' is a function: call it as " + n + "(...)", t);
    }
    fail("unknown name '" + n +
             "' (the names are x, y, z, xc, yc, zc, lx, ly, lz, r and pi, and the functions "
             "abs, acos, asin, atan, atan2, cos, cosh, exp, log, log10, max, min, mod, sign, "
             "sin, sinh, sqrt, tan, tanh)",
         t);
  }

  struct function_spec {
    const char* name;
    expression_op op;
    int least, most;  // argument counts
    bool real_only;   // Fortran accepts only real arguments
  };

  static const function_spec* function_of(const std::string& n) {
    static const function_spec functions[] = {
        {"sin", expression_op::sin, 1, 1, true},     {"cos", expression_op::cos, 1, 1, true},
        {"tan", expression_op::tan, 1, 1, true},     {"asin", expression_op::asin, 1, 1, true},
        {"acos", expression_op::acos, 1, 1, true},   {"atan", expression_op::atan, 1, 1, true},
        {"atan2", expression_op::atan2, 2, 2, true}, {"sinh", expression_op::sinh, 1, 1, true},
        {"cosh", expression_op::cosh, 1, 1, true},   {"tanh", expression_op::tanh, 1, 1, true},
        {"exp", expression_op::exp, 1, 1, true},     {"log", expression_op::log, 1, 1, true},
        {"log10", expression_op::log10, 1, 1, true}, {"sqrt", expression_op::sqrt, 1, 1, true},
        {"abs", expression_op::abs, 1, 1, false},    {"min", expression_op::min, 2, 1000, false},
        {"max", expression_op::max, 2, 1000, false}, {"mod", expression_op::mod, 2, 2, false},
        {"sign", expression_op::sign, 2, 2, false}};
    for (const function_spec& f : functions) {
      if (n == f.name) {
        return &f;
      }
    }
    return nullptr;
  }

  // NOLINTNEXTLINE(misc-no-recursion): nesting is bounded by max_depth.
  operand call(const token& t) {
    const function_spec* f = function_of(t.text);
    if (f == nullptr) {
      if (t.text.size() == 1 && std::string("xyz").find(t.text) != std::string::npos) {
        fail("'" + t.text + "' is a coordinate, not a function", t);
      }
      fail("unknown function '" + t.text +
               "' (the functions are abs, acos, asin, atan, atan2, cos, cosh, exp, log, log10, "
               "max, min, mod, sign, sin, sinh, sqrt, tan, tanh)",
           t);
    }
    const token open = take();
    enter(open);
    std::vector<operand> args;
    if (!peek_op(")")) {
      args.push_back(additive());
      while (peek_op(",")) {
        take();
        args.push_back(additive());
      }
    }
    --m_depth;
    if (!peek_op(")")) {
      fail("expected ',' or ')' in the arguments of " + t.text + "(, found " + found(peek()),
           peek());
    }
    take();
    const int count = static_cast<int>(args.size());
    if (count < f->least || count > f->most) {
      fail(t.text + " takes " +
               (f->least == f->most ? std::to_string(f->least)
                                    : "at least " + std::to_string(f->least)) +
               " argument(s), not " + std::to_string(count),
           t);
    }
    for (operand& a : args) {
      if (f->real_only && a.type == kind::integer) {
        fail_at("Fortran's " + t.text +
                    " takes a real argument, not an integer: write it with a decimal point "
                    "(1.0, or 1.d0 for a double)",
                a.column, t.text);
      }
      if (a.type == kind::integer) {
        for (const operand& other : args) {
          if (other.type != kind::integer) {
            fail_at("Fortran's " + t.text +
                        " takes arguments of one type: this one is an integer, another is real",
                    a.column, t.text);
          }
        }
      }
    }
    operand v = std::move(args[0]);
    if (count == 1) {
      apply_unary(f->op, v);
    }
    for (int k = 1; k < count; ++k) {
      v = binary(f->op, v, args[static_cast<std::size_t>(k)], t);
    }
    v.column = t.column;
    return v;
  }

  static double widen(const operand& v) {
    return v.type == kind::integer ? static_cast<double>(v.integer) : v.value;
  }

  // Puts a constant's value on the stack, widened to double.
  static void materialize(operand& v) {
    if (v.constant) {
      v.code     = {{widen(v), 0, expression_op::constant}};
      v.constant = false;
      v.type     = kind::real;
    }
  }

  void negate(operand& v) {
    if (!v.constant) {
      v.code.push_back({0.0, 0, expression_op::neg});
    } else if (v.type == kind::integer) {
      v.integer = -v.integer;
    } else {
      v.value = -v.value;
    }
  }

  template <class T>
  static T unary_value(expression_op op, T a) {
    switch (op) {
      case expression_op::sin:
        return std::sin(a);
      case expression_op::cos:
        return std::cos(a);
      case expression_op::tan:
        return std::tan(a);
      case expression_op::asin:
        return std::asin(a);
      case expression_op::acos:
        return std::acos(a);
      case expression_op::atan:
        return std::atan(a);
      case expression_op::sinh:
        return std::sinh(a);
      case expression_op::cosh:
        return std::cosh(a);
      case expression_op::tanh:
        return std::tanh(a);
      case expression_op::exp:
        return std::exp(a);
      case expression_op::log:
        return std::log(a);
      case expression_op::log10:
        return std::log10(a);
      case expression_op::sqrt:
        return std::sqrt(a);
      default:
        return std::fabs(a);
    }
  }

  static void apply_unary(expression_op op, operand& v) {
    if (!v.constant) {
      v.code.push_back({0.0, 0, op});
    } else if (v.type == kind::integer) {
      v.integer = v.integer < 0 ? -v.integer : v.integer;  // abs, the one unary of integers
    } else if (v.type == kind::single) {
      v.value = unary_value(op, static_cast<float>(v.value));
    } else {
      v.value = unary_value(op, v.value);
    }
  }

  template <class T>
  static T binary_value(expression_op op, T a, T b) {
    switch (op) {
      case expression_op::add:
        return a + b;
      case expression_op::sub:
        return a - b;
      case expression_op::mul:
        return a * b;
      case expression_op::div:
        return a / b;
      case expression_op::power:
        return std::pow(a, b);
      case expression_op::atan2:
        return std::atan2(a, b);
      case expression_op::min:
        return b < a ? b : a;
      case expression_op::max:
        return b > a ? b : a;
      case expression_op::mod:
        return std::fmod(a, b);
      default:
        return std::copysign(std::fabs(a), b);
    }
  }

  // Fortran's integer arithmetic, refused where it is undefined or overflows.
  static long long integer_value(expression_op op, long long a, long long b, const token& at) {
    long long r = 0;
    switch (op) {
      case expression_op::add:
        r = a + b;
        break;
      case expression_op::sub:
        r = a - b;
        break;
      case expression_op::mul:
        r = a * b;
        break;
      case expression_op::div:
      case expression_op::mod:
        if (b == 0) {
          fail("an integer division by zero", at);
        }
        r = op == expression_op::div ? a / b : a % b;
        break;
      case expression_op::power:
        if (b < 0) {
          if (a == 0) {
            fail("0 to a negative integer power", at);
          }
          r = a == 1 ? 1 : a == -1 ? (b % 2 == 0 ? 1 : -1) : 0;
        } else {
          r = 1;
          for (long long k = 0; k < b && r != 0; ++k) {
            r *= a;
            if (r > 2147483647LL || r < -2147483648LL) {
              break;
            }
          }
        }
        break;
      case expression_op::min:
        r = b < a ? b : a;
        break;
      case expression_op::max:
        r = b > a ? b : a;
        break;
      default:
        r = (b >= 0) == (a >= 0) ? a : -a;
        break;  // sign
    }
    if (r > 2147483647LL || r < -2147483648LL) {
      fail("the integer result overflows Fortran's default integer", at);
    }
    return r;
  }

  operand binary(expression_op op, operand a, operand b, const token& at) {
    if (a.constant && b.constant) {
      operand v;
      v.constant = true;
      v.column   = a.column;
      if (a.type == kind::integer && b.type == kind::integer) {
        v.type    = kind::integer;
        v.integer = integer_value(op, a.integer, b.integer, at);
      } else if (op == expression_op::power && b.type == kind::integer) {
        v.type  = a.type;
        v.value = a.type == kind::single
                      ? static_cast<double>(detail::power_int(static_cast<float>(a.value),
                                                              static_cast<int>(b.integer)))
                      : detail::power_int(a.value, static_cast<int>(b.integer));
      } else if (a.type != kind::real && b.type != kind::real) {
        v.type  = kind::single;
        v.value = binary_value(op, static_cast<float>(widen(a)), static_cast<float>(widen(b)));
      } else {
        v.type  = kind::real;
        v.value = binary_value(op, widen(a), widen(b));
      }
      return v;
    }
    operand v;
    v.column = a.column;
    if (op == expression_op::power && b.constant && b.type == kind::integer) {
      materialize(a);
      v.code = std::move(a.code);
      v.code.push_back({0.0, static_cast<int>(b.integer), expression_op::power_int});
      return v;
    }
    materialize(a);
    materialize(b);
    v.code = std::move(a.code);
    v.code.insert(v.code.end(), b.code.begin(), b.code.end());
    v.code.push_back({0.0, 0, op});
    return v;
  }

  expression_program program_of(const operand& e) const {
    expression_program p;
    if (e.code.size() > static_cast<std::size_t>(expression_program::max_instructions)) {
      fail_at("the expression needs " + std::to_string(e.code.size()) +
                  " operations, more than the " +
                  std::to_string(expression_program::max_instructions) + " a program holds",
              1, m_text);
    }
    int depth = 0;
    for (const expression_instruction& in : e.code) {
      const bool push = in.op == expression_op::constant || in.op == expression_op::x ||
                        in.op == expression_op::y || in.op == expression_op::z;
      const bool unary = in.op == expression_op::neg || in.op == expression_op::power_int ||
                         (in.op >= expression_op::sin && in.op <= expression_op::abs &&
                          in.op != expression_op::atan2);
      depth += push ? 1 : unary ? 0 : -1;
      if (depth > expression_program::max_stack) {
        fail_at("the expression holds more than " + std::to_string(expression_program::max_stack) +
                    " values at once",
                1, m_text);
      }
      p.code[p.size++] = in;
    }
    return p;
  }
};

}  // namespace detail

// Compiles `text` for the names in `names`; throws expression_error naming the column and the
// token where it is refused.
inline expression_program compile_expression(const std::string& text,
                                             const expression_names& names) {
  return detail::expression_parser(text, names).compile();
}

// Whether `text` is a number as Python's float() reads one (MFC's toolchain then writes it into
// the namelist as a number, read in double, rather than as an expression): optional spaces and
// sign, digits with an optional point and an optional e exponent.
inline bool plain_number(const std::string& text, double& value) {
  std::size_t k = text.find_first_not_of(" \t\n");
  std::size_t e = text.find_last_not_of(" \t\n");
  if (k == std::string::npos) {
    return false;
  }
  const std::string s = text.substr(k, e - k + 1);
  std::size_t at      = s[0] == '+' || s[0] == '-' ? 1 : 0;
  std::size_t digits  = 0;
  while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
    ++at, ++digits;
  }
  if (at < s.size() && s[at] == '.') {
    ++at;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
      ++at, ++digits;
    }
  }
  if (digits == 0) {
    return false;
  }
  if (at < s.size() && (s[at] == 'e' || s[at] == 'E')) {
    ++at;
    if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
      ++at;
    }
    std::size_t exponent = 0;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
      ++at, ++exponent;
    }
    if (exponent == 0) {
      return false;
    }
  }
  if (at != s.size()) {
    return false;
  }
  value = std::strtod(s.c_str(), nullptr);
  return true;
}

}  // namespace loopnest_mfc

#endif
