// MFC's analytic patch expressions: values against the same arithmetic written in C++, Fortran's
// kinds of literals, precedence and associativity, the program on the device, and every refusal
// with its column and token.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "expression.hpp"

namespace {

using loopnest_mfc::compile_expression;
using loopnest_mfc::expression_error;
using loopnest_mfc::expression_names;
using loopnest_mfc::expression_program;

double eval(const std::string& text, double x = 0., double y = 0., double z = 0.,
            const expression_names& names = {}) {
  return compile_expression(text, names)(x, y, z);
}

TEST(mfc_expression, computes_mfcs_examples_as_the_generated_fortran_does) {
  // examples/1D_shuosher_analytical: 0.2 is a default (single) real, 1 and 5 integers.
  for (const double x : {-4.0, -0.3, 0.1, 2.75}) {
    EXPECT_EQ(eval("1 + 0.2*sin(5*x)", x), 1. + static_cast<double>(0.2F) * std::sin(5. * x));
    EXPECT_EQ(eval("1.d0 + 0.2d0*sin(5.d0*x)", x), 1. + 0.2 * std::sin(5. * x));
  }
  expression_names names;
  names.num_dims    = 2;
  names.centroid[0] = 0.5;
  names.centroid[1] = -0.25;
  names.length[0]   = 2.;
  names.radius      = 0.125;
  const double x = 0.3, y = 0.7;
  EXPECT_EQ(eval("exp(-((x - xc)**2 + (y - yc)**2)/r**2)", x, y, 0., names),
            std::exp(-((x - 0.5) * (x - 0.5) + (y + 0.25) * (y + 0.25)) / (0.125 * 0.125)));
  EXPECT_EQ(eval("1 + 0.5*cos(2*pi*x/lx)", x, y, 0., names),
            1. + 0.5 * std::cos(2. * 3.141592653589793 * x / 2.));
}

TEST(mfc_expression, gives_each_literal_its_fortran_kind) {
  EXPECT_EQ(eval("0.2 + x"), static_cast<double>(0.2F));        // Python repr 0.2: default real
  EXPECT_EQ(eval("0.0001 + x"), static_cast<double>(0.0001F));  // repr 0.0001
  EXPECT_EQ(eval("0.00001 + x"), 1e-5);                         // repr 1e-05: _wp
  EXPECT_EQ(eval("2e-3 + x"), static_cast<double>(0.002F));     // repr 0.002
  EXPECT_EQ(eval("1e16 + x"), 1e16);                            // repr 1e+16: _wp
  EXPECT_EQ(eval("0.1d0 + x"), 0.1);
  EXPECT_EQ(eval("0.1D0 + x"), 0.1);
  EXPECT_EQ(eval(".5 + x"), 0.5);
  // Subexpressions of literals alone are folded in their own kind.
  EXPECT_EQ(eval("0.1*0.3 + x"), static_cast<double>(0.1F * 0.3F));
  EXPECT_EQ(eval("sin(0.5) + x"), static_cast<double>(std::sin(0.5F)));
  EXPECT_EQ(eval("7/2 + x"), 3.);
  EXPECT_EQ(eval("-7/2 + x"), -3.);
  EXPECT_EQ(eval("1/2*x", 5.), 0.);
  EXPECT_EQ(eval("x*1/2", 5.), 2.5);
  EXPECT_EQ(eval("2**-1 + x"), 0.);
  EXPECT_EQ(eval("2.0**-1 + x"), 0.5);
  EXPECT_EQ(eval("2**0.5 + x"), static_cast<double>(std::pow(2.F, 0.5F)));
  EXPECT_EQ(eval("pi + x"), 3.141592653589793);
  EXPECT_EQ(eval("mod(7, 3) + x"), 1.);
  EXPECT_EQ(eval("sign(2, -1) + x"), -2.);
  EXPECT_EQ(eval("abs(-4) + max(1, 5, 2) + min(3, -1) + x"), 8.);
}

TEST(mfc_expression, follows_pythons_precedence_and_associativity) {
  EXPECT_EQ(eval("x - y - z", 1., 2., 3.), -4.);     // (x - y) - z
  EXPECT_EQ(eval("x / y / z", 8., 2., 2.), 2.);      // (x / y) / z
  EXPECT_EQ(eval("x ** y ** z", 2., 3., 2.), 512.);  // x ** (y ** z)
  EXPECT_EQ(eval("x * y + z", 2., 3., 4.), 10.);
  EXPECT_EQ(eval("x + y * z", 2., 3., 4.), 14.);
  EXPECT_EQ(eval("(x + y) * z", 2., 3., 4.), 20.);
  EXPECT_EQ(eval("-x**2", 3.), -9.);  // -(x**2)
  EXPECT_EQ(eval("(-x)**2", 3.), 9.);
  EXPECT_EQ(eval("x**-y", 2., 2.), 0.25);  // x**(-y)
  EXPECT_EQ(eval("- -x + +y", 2., 3.), 5.);
  EXPECT_EQ(eval("-2**2 + x"), -4.);
  // Left to right, each rounded: 1e16 + 1 - 1e16 is 0 in double, 1 the other way round.
  EXPECT_EQ(eval("x + y - x", 1e16, 1.), 0.);
  EXPECT_EQ(eval("x + (y - x)", 1e16, 1.), 1e16 - (1e16 - 1.));
}

TEST(mfc_expression, raises_to_an_integer_power_as_libgcc_does) {
  const double x = 1.1;
  EXPECT_EQ(eval("x**2", x), x * x);
  EXPECT_EQ(eval("x**3", x), x * (x * x));
  EXPECT_EQ(eval("x**5", x), x * ((x * x) * (x * x)));
  EXPECT_EQ(eval("x**-2", x), 1. / (x * x));
  EXPECT_EQ(eval("x**0", x), 1.);
  EXPECT_EQ(eval("x**2.0", x), std::pow(x, static_cast<double>(2.F)));
  EXPECT_EQ(eval("x**(1+1)", x), x * x);  // the exponent is folded to the integer 2
}

TEST(mfc_expression, computes_every_function_as_the_c_library_does) {
  const double x = 0.375, y = -1.625;
  EXPECT_EQ(eval("sin(x)", x), std::sin(x));
  EXPECT_EQ(eval("cos(x)", x), std::cos(x));
  EXPECT_EQ(eval("tan(x)", x), std::tan(x));
  EXPECT_EQ(eval("asin(x)", x), std::asin(x));
  EXPECT_EQ(eval("acos(x)", x), std::acos(x));
  EXPECT_EQ(eval("atan(x)", x), std::atan(x));
  EXPECT_EQ(eval("atan2(x, y)", x, y), std::atan2(x, y));
  EXPECT_EQ(eval("sinh(x)", x), std::sinh(x));
  EXPECT_EQ(eval("cosh(x)", x), std::cosh(x));
  EXPECT_EQ(eval("tanh(x)", x), std::tanh(x));
  EXPECT_EQ(eval("exp(x)", x), std::exp(x));
  EXPECT_EQ(eval("log(x)", x), std::log(x));
  EXPECT_EQ(eval("log10(x)", x), std::log10(x));
  EXPECT_EQ(eval("sqrt(x)", x), std::sqrt(x));
  EXPECT_EQ(eval("abs(y)", x, y), 1.625);
  EXPECT_EQ(eval("min(x, y)", x, y), y);
  EXPECT_EQ(eval("max(x, y)", x, y), x);
  EXPECT_EQ(eval("max(x, y, 4.d0)", x, y), 4.);
  EXPECT_EQ(eval("mod(y, x)", x, y), std::fmod(y, x));
  EXPECT_EQ(eval("sign(x, y)", x, y), -x);
  EXPECT_EQ(eval("sign(y, x)", x, y), 1.625);
}

TEST(mfc_expression, reads_a_plain_number_as_pythons_float_does) {
  double v = 0.;
  EXPECT_TRUE(loopnest_mfc::plain_number(" 0.1 ", v));
  EXPECT_EQ(v, 0.1);
  EXPECT_TRUE(loopnest_mfc::plain_number("-2.5e-3", v));
  EXPECT_EQ(v, -2.5e-3);
  EXPECT_TRUE(loopnest_mfc::plain_number("3.", v));
  EXPECT_EQ(v, 3.);
  for (const char* text : {"", " ", "1.d0", "x", "1 + 2", "1e", ".", "-"}) {
    EXPECT_FALSE(loopnest_mfc::plain_number(text, v)) << text;
  }
}

// The program evaluated in a parallel_for on the default execution space (the device under
// CUDA), each cell's result against the host's: the same on a host backend, within a few units
// in the last place under CUDA, whose sin, exp and atan2 are not glibc's to the bit.
void evaluate_on_device(const expression_program& program, int cells, double* out_host) {
  Kokkos::View<double*> out("expression values", cells);
  Kokkos::parallel_for(
      "expression", Kokkos::RangePolicy<>(0, cells),
      KOKKOS_LAMBDA(int i) { out(i) = program(0.1 * i, 0.2 - 0.05 * i, 0.); });
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < cells; ++i) {
    out_host[i] = mirror(i);
  }
}

TEST(mfc_expression, is_a_trivially_copyable_program_that_the_device_evaluates_as_the_host) {
  static_assert(std::is_trivially_copyable<expression_program>::value,
                "a device lambda captures the program by copy");
  expression_names names;
  names.num_dims = 2;
  const expression_program program =
      compile_expression("1 + 0.2*sin(5*x)*exp(-y**2) - atan2(y, x + 1.d0)/pi", names);
  double values[16];
  evaluate_on_device(program, 16, values);
  const bool host =
      Kokkos::SpaceAccessibility<Kokkos::DefaultExecutionSpace, Kokkos::HostSpace>::accessible;
  for (int i = 0; i < 16; ++i) {
    const double expected = program(0.1 * i, 0.2 - 0.05 * i, 0.);
    const double ulps     = host ? 0. : 4.;
    EXPECT_LE(std::abs(values[i] - expected),
              ulps * std::numeric_limits<double>::epsilon() * std::abs(expected))
        << i << ": " << values[i] << " on the device, " << expected << " on the host";
  }
}

struct refusal {
  std::string text;
  int column;
  std::string token;
  std::string says;
};

TEST(mfc_expression, refuses_with_the_column_and_the_token) {
  expression_names names;
  names.num_dims = 2;
  std::string deep, wide, tall;
  for (int k = 0; k < 65; ++k) {
    deep += "(";
  }
  deep += "x";
  for (int k = 0; k < 65; ++k) {
    deep += ")";
  }
  for (int k = 0; k < 70; ++k) {
    wide += k == 0 ? "x" : "+x";
  }
  for (int k = 0; k < 33; ++k) {
    tall += "x+(";
  }
  tall += "x";
  for (int k = 0; k < 33; ++k) {
    tall += ")";
  }
  const refusal refusals[] = {
      {"", 1, "", "the expression is empty"},
      {"  ", 3, "", "the expression is empty"},
      {"1 + ", 5, "", "expected a number, a name or '(', found the end of the expression"},
      {"* x", 1, "*", "expected a number, a name or '(', found '*'"},
      {"(x + 1", 7, "", "expected ')' to close the '(' at column 1, found the end"},
      {"x + 1)", 6, ")", "')' follows a complete expression"},
      {"x y", 3, "y", "'y' follows a complete expression"},
      {"x ^ 2", 3, "^", "'^' is not a power in MFC's expressions"},
      {"x % 2", 3, "%", "write mod(a, p)"},
      {"x // 2", 3, "//", "floor division"},
      {"x $ 2", 3, "$", "unexpected character '$'"},
      {"x\t\x01", 3, "\\x01", "unexpected character '\\x01'"},
      {"1.5e + x", 1, "1.5e", "the number's exponent has no digits"},
      {"2x", 1, "2x", "'2x' is not a number"},
      {"1.0_wp", 1, "1.0_wp", "'1.0_wp' is not a number"},
      {"3000000000 + x", 1, "3000000000", "too large for Fortran's default integer"},
      {"1d999", 1, "1d999", "too large for a double"},
      {"foo + 1", 1, "foo", "unknown name 'foo'"},
      {"2*e", 3, "e", "unknown name 'e'"},
      {"eps*x", 1, "eps", "'eps' is a patch parameter MFC offers that this port does not read"},
      {"x + z", 5, "z", "'z' is not a coordinate of a case with 2 dimension(s)"},
      {"lx*x", 1, "lx", "'lx' is the patch's length_x, which this patch does not have"},
      {"sin + 1", 1, "sin", "'sin' is a function: call it as sin(...)"},
      {"foo(x)", 1, "foo", "unknown function 'foo'"},
      {"x(2)", 1, "x", "'x' is a coordinate, not a function"},
      {"1 + sin(x, y)", 5, "sin", "sin takes 1 argument(s), not 2"},
      {"max(x)", 1, "max", "max takes at least 2 argument(s), not 1"},
      {"1 + sin(1)", 9, "sin", "Fortran's sin takes a real argument, not an integer"},
      {"mod(1, x)", 5, "mod", "takes arguments of one type"},
      {"sin(x", 6, "", "expected ',' or ')' in the arguments of sin(, found the end"},
      {"x + 1/0", 6, "/", "an integer division by zero"},
      {"0**-1 + x", 2, "**", "0 to a negative integer power"},
      {"2**31 + x", 2, "**", "overflows Fortran's default integer"},
      {deep, 65, "(", "nests deeper than 64 levels"},
      {wide, 1, wide, "needs 139 operations, more than the 128 a program holds"},
      {tall, 1, tall, "holds more than 32 values at once"},
  };
  for (const refusal& r : refusals) {
    try {
      compile_expression(r.text, names);
      ADD_FAILURE() << "'" << r.text << "' was accepted";
    } catch (const expression_error& e) {
      EXPECT_EQ(e.column, r.column) << r.text << ": " << e.what();
      EXPECT_EQ(e.token, r.token) << r.text << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(r.says), std::string::npos)
          << r.text << ": " << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("column " + std::to_string(r.column) + ": ", 0), 0u)
          << e.what();
    }
  }
}

}  // namespace
