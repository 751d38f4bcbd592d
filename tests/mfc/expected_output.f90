! Writes the expected files of tests/mfc/test_output.cpp with the loops and formats of MFC's
! s_write_serial_data_files (src/simulation/m_data_output.fpp @d91cb687). Regenerate with
!   gfortran expected_output.f90 -o expected_output && ./expected_output
! in tests/mfc/. The grid is uniform: x in [0, 0.75] with m = 2, y in [0, 1] with n = 1,
! z in [-1, 0] with p = 1; cell boundaries x_cb(i - 1) = beg + dx*i, x_cb(m) = end.
program expected_output
    implicit none
    integer, parameter :: wp = kind(0d0)
    real(wp) :: table(0:11), x_cb(-1:2), y_cb(-1:1), z_cb(-1:1), dx, dy, dz
    integer :: i, j, k, l
    character(len=15) :: FMT

    table = [1._wp/3._wp, -1.e-20_wp, 2.5e6_wp, -0._wp, 123.456_wp, -7._wp/3._wp, &
             1.e25_wp, 0.1_wp, -1.e24_wp, 5.e-15_wp, 1._wp/32768._wp, -2._wp]
    dx = (0.75_wp - 0._wp)/real(2 + 1, wp)
    dy = (1._wp - 0._wp)/real(1 + 1, wp)
    dz = (0._wp - (-1._wp))/real(1 + 1, wp)
    do i = 0, 2
        x_cb(i - 1) = 0._wp + dx*real(i, wp)
    end do
    x_cb(2) = 0.75_wp
    do i = 0, 1
        y_cb(i - 1) = 0._wp + dy*real(i, wp)
        z_cb(i - 1) = -1._wp + dz*real(i, wp)
    end do
    y_cb(1) = 1._wp
    z_cb(1) = 0._wp

    FMT = "(2F40.14)"
    open (2, FILE='expected_1d.dat')
    do j = 0, 2
        write (2, FMT) x_cb(j), table(j)
    end do
    close (2)

    FMT = "(2F30.3)"
    open (2, FILE='expected_1d_precision_1.dat')
    do j = 0, 2
        write (2, FMT) x_cb(j), table(j)
    end do
    close (2)

    FMT = "(3F40.14)"
    open (2, FILE='expected_2d.dat')
    do j = 0, 2
        do k = 0, 1
            write (2, FMT) x_cb(j), y_cb(k), table(j + 3*k)
        end do
        write (2, *)
    end do
    close (2)

    FMT = "(4F40.14)"
    open (2, FILE='expected_3d.dat')
    do j = 0, 2
        do k = 0, 1
            do l = 0, 1
                write (2, FMT) x_cb(j), y_cb(k), z_cb(l), table(mod(j + 3*k + 6*l, 12))
            end do
            write (2, *)
        end do
        write (2, *)
    end do
    close (2)
end program expected_output
