! Writes the expected files of tests/mfc/test_output.cpp with the loops and formats of MFC's
! s_write_serial_data_files (src/simulation/m_data_output.fpp @d91cb687), and run_time.inf with
! the statements of its s_open_run_time_information_file and s_write_run_time_information (the
! date fixed at 2026-12-05; rows of steps 0 to 4 of table's values, then overflowing ones).
! Regenerate with
!   gfortran expected_output.f90 -o expected_output && ./expected_output
! in tests/mfc/. The grid is uniform: x in [0, 0.75] with m = 2, y in [0, 1] with n = 1,
! z in [-1, 0] with p = 1; cell boundaries x_cb(i - 1) = beg + dx*i, x_cb(m) = end.
program expected_output
    implicit none
    integer, parameter :: wp = kind(0d0)
    real(wp) :: table(0:11), x_cb(-1:2), y_cb(-1:1), z_cb(-1:1), dx, dy, dz
    integer :: i, j, k, l
    character(len=15) :: FMT
    character(LEN=8) :: file_date

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

    open (3, FILE='expected_run_time.inf', FORM='formatted', STATUS='replace')
    write (3, '(A)') 'Description: Stability information at '// &
        'each time-step of the simulation. This'
    write (3, '(13X,A)') 'data is composed of the inviscid '// &
        'Courant–Friedrichs–Lewy (ICFL)'
    write (3, '(13X,A)') 'number, the viscous CFL (VCFL) number, '// &
        'the capillary CFL (CCFL)'
    write (3, '(13X,A)') 'number and the cell Reynolds (Rc) '// &
        'number. Please note that only'
    write (3, '(13X,A)') 'those stability conditions pertinent '// &
        'to the physics included in'
    write (3, '(13X,A)') 'the current computation are displayed.'
    file_date = '20261205'
    write (3, '(A)') 'Date: '//file_date(5:6)//'/'// &
        file_date(7:8)//'/'// &
        file_date(3:4)
    write (3, '(A)') ''; write (3, '(A)') ''
    write (3, '(13X,A9,13X,A10,13X,A10,13X,A10)', advance="no") &
        trim('Time-step'), trim('dt'), trim('Time'), trim('ICFL Max')
    write (3, *) ! new line
    do i = 0, 4
        write (3, '(13X,I9,13X,F10.6,13X,F10.6,13X,F10.6)', advance="no") &
            i, abs(table(i))*1.e-3_wp, table(i + 5), abs(table(i + 7))
        write (3, *) ! new line
    end do
    write (3, '(13X,I9,13X,F10.6,13X,F10.6,13X,F10.6)', advance="no") &
        1234567890, 1.e-9_wp, 1234.5_wp, -0._wp
    write (3, *) ! new line
    close (3)
end program expected_output
