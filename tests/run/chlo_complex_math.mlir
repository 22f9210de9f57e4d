// chlo.acos, acosh, asin, asinh, atan, atanh, sinh, cosh and tan of
// complex<f64> and complex<f32> operands, against Python's cmath (C99
// Annex G branch cuts; f32 references rounded from the f64 values), on 6
// points: inside the unit disk, a large |z|, a tiny z, the real axis
// beyond 1 (+0 imaginary part: upper side of the branch cuts), next to
// z = 1, and near the negative real axis. Each part must satisfy
// |result - expected| <= tol |expected| (tol 1e-14 for f64, 2.5e-7,
// about 2 ULP, for f32). Hand-checked: asin(2 + 0i) = pi/2 + i log(2 + sqrt 3)
// = 1.5707963267948966 + 1.3169578969248166i, atanh(2 + 0i) = log(3)/2 +
// i pi/2 = 0.5493061443340549 + 1.5707963267948966i.
// The last result checks the sides of the branch cuts at -0: asin(3 - 0i)
// has a negative imaginary part, acos(3 - 0i) a positive one, acosh(-2 - 0i)
// imaginary part -pi.
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 6xi1=[1 1 1 1 1 1]
// OUTPUT: 3xi1=[1 1 1]
func.func private @close_f64(%r: tensor<6xcomplex<f64>>, %e: tensor<6xcomplex<f64>>, %tol: tensor<6xf64>) -> tensor<6xi1> {
  %rr = stablehlo.real %r : (tensor<6xcomplex<f64>>) -> tensor<6xf64>
  %ri = stablehlo.imag %r : (tensor<6xcomplex<f64>>) -> tensor<6xf64>
  %er = stablehlo.real %e : (tensor<6xcomplex<f64>>) -> tensor<6xf64>
  %ei = stablehlo.imag %e : (tensor<6xcomplex<f64>>) -> tensor<6xf64>
  %dr = stablehlo.subtract %rr, %er : tensor<6xf64>
  %di = stablehlo.subtract %ri, %ei : tensor<6xf64>
  %adr = stablehlo.abs %dr : tensor<6xf64>
  %adi = stablehlo.abs %di : tensor<6xf64>
  %aer = stablehlo.abs %er : tensor<6xf64>
  %aei = stablehlo.abs %ei : tensor<6xf64>
  %lr = stablehlo.multiply %aer, %tol : tensor<6xf64>
  %li = stablehlo.multiply %aei, %tol : tensor<6xf64>
  %okr = stablehlo.compare LE, %adr, %lr : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
  %oki = stablehlo.compare LE, %adi, %li : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
  %ok = stablehlo.and %okr, %oki : tensor<6xi1>
  return %ok : tensor<6xi1>
}
func.func private @close_f32(%r: tensor<6xcomplex<f32>>, %e: tensor<6xcomplex<f32>>, %tol: tensor<6xf32>) -> tensor<6xi1> {
  %rr = stablehlo.real %r : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %ri = stablehlo.imag %r : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %er = stablehlo.real %e : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %ei = stablehlo.imag %e : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %dr = stablehlo.subtract %rr, %er : tensor<6xf32>
  %di = stablehlo.subtract %ri, %ei : tensor<6xf32>
  %adr = stablehlo.abs %dr : tensor<6xf32>
  %adi = stablehlo.abs %di : tensor<6xf32>
  %aer = stablehlo.abs %er : tensor<6xf32>
  %aei = stablehlo.abs %ei : tensor<6xf32>
  %lr = stablehlo.multiply %aer, %tol : tensor<6xf32>
  %li = stablehlo.multiply %aei, %tol : tensor<6xf32>
  %okr = stablehlo.compare LE, %adr, %lr : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %oki = stablehlo.compare LE, %adi, %li : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %ok = stablehlo.and %okr, %oki : tensor<6xi1>
  return %ok : tensor<6xi1>
}
func.func @main() -> (tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<3xi1>) {
  %z_f64 = stablehlo.constant dense<[(5.00000000000000000e-01, -2.50000000000000000e-01), (-3.00000000000000000e+00, 4.00000000000000000e+00), (1.00000000000000008e-05, 2.00000000000000016e-05), (2.00000000000000000e+00, 0.00000000000000000e+00), (9.99998999999999971e-01, 1.00000000000000002e-08), (-1.50000000000000000e+00, -1.00000000000000002e-03)]> : tensor<6xcomplex<f64>>
  %tol_f64 = stablehlo.constant dense<1.0e-14> : tensor<6xf64>
  %asin_f64 = chlo.asin %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_asin_f64 = stablehlo.constant dense<[(5.01608853275500755e-01, -2.81396056245292736e-01), (-6.33983865639176636e-01, 2.30550903124347695e+00), (9.99999999816666577e-06, 1.99999999996666705e-05), (1.57079632679489656e+00, 1.31695789692481657e+00), (1.56938209543753926e+00, 7.07098119505791017e-06), (-1.56990190012862652e+00, -9.62424186774877288e-01)]> : tensor<6xcomplex<f64>>
  %ok_asin_f64 = func.call @close_f64(%asin_f64, %e_asin_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %acos_f64 = chlo.acos %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_acos_f64 = stablehlo.constant dense<[(1.06918747351939603e+00, 2.81396056245292736e-01), (2.20478019243407353e+00, -2.30550903124347695e+00), (1.57078632679489849e+00, -1.99999999996666705e-05), (0.00000000000000000e+00, -1.31695789692481657e+00), (1.41423135735729670e-03, -7.07098119505791017e-06), (3.14069822692352307e+00, 9.62424186774877288e-01)]> : tensor<6xcomplex<f64>>
  %ok_acos_f64 = func.call @close_f64(%acos_f64, %e_acos_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %acosh_f64 = chlo.acosh %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_acosh_f64 = stablehlo.constant dense<[(2.81396056245292736e-01, -1.06918747351939603e+00), (2.30550903124347695e+00, 2.20478019243407353e+00), (1.99999999996666705e-05, 1.57078632679489849e+00), (1.31695789692481657e+00, 0.00000000000000000e+00), (7.07098119505791017e-06, 1.41423135735729670e-03), (9.62424186774877288e-01, -3.14069822692352307e+00)]> : tensor<6xcomplex<f64>>
  %ok_acosh_f64 = func.call @close_f64(%acosh_f64, %e_acosh_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %asinh_f64 = chlo.asinh %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_asinh_f64 = stablehlo.constant dense<[(4.92675683420770616e-01, -2.24328452634667497e-01), (-2.29991404087926954e+00, 9.17616853351478690e-01), (1.00000000018333325e-05, 2.00000000003333362e-05), (1.44363547517881030e+00, 0.00000000000000000e+00), (8.81372879912585172e-01, 7.07107134740026448e-09), (-1.19476334529484229e+00, -5.54700165590897424e-04)]> : tensor<6xcomplex<f64>>
  %ok_asinh_f64 = func.call @close_f64(%asinh_f64, %e_asinh_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %atan_f64 = chlo.atan %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_atan_f64 = stablehlo.constant dense<[(4.84254490329966203e-01, -2.00586618131234323e-01), (-1.44830699523146444e+00, 1.58997191679999178e-01), (1.00000000036666692e-05, 2.00000000006666674e-05), (1.10714871779409041e+00, 0.00000000000000000e+00), (7.85397663397198298e-01, 5.00000500000250061e-09), (-9.82793865259146582e-01, -3.07692251858597164e-04)]> : tensor<6xcomplex<f64>>
  %ok_atan_f64 = func.call @close_f64(%atan_f64, %e_atan_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %atanh_f64 = chlo.atanh %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_atanh_f64 = stablehlo.constant dense<[(5.00370000052531072e-01, -3.14398143207716474e-01), (-1.17500907311433894e-01, 1.40992104959657549e+00), (9.99999999633333241e-06, 1.99999999993333325e-05), (5.49306144334054891e-01, 1.57079632679489656e+00), (7.25430362049758770e+00, 4.99983584319010563e-03), (-8.04717996219046938e-01, -1.56999632811756018e+00)]> : tensor<6xcomplex<f64>>
  %ok_atanh_f64 = func.call @close_f64(%atanh_f64, %e_atanh_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %sinh_f64 = chlo.sinh %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_sinh_f64 = stablehlo.constant dense<[(5.04895714387994965e-01, -2.78979128350261507e-01), (6.54812004091100253e+00, -7.61923172032140972e+00), (9.99999999816666746e-06, 1.99999999996666671e-05), (3.62686040784701902e+00, 0.00000000000000000e+00), (1.17519965056375431e+00, 1.54307945961482153e-08), (-2.12927839045517864e+00, -2.35240922317499776e-03)]> : tensor<6xcomplex<f64>>
  %ok_sinh_f64 = func.call @close_f64(%sinh_f64, %e_sinh_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %cosh_f64 = chlo.cosh %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_cosh_f64 = stablehlo.constant dense<[(1.09257080473191759e+00, -1.28921041728098262e-01), (-6.58066304055115658e+00, 7.58155274274654456e+00), (9.99999999849999988e-01, 1.99999999990000040e-10), (3.76219569108363139e+00, 0.00000000000000000e+00), (1.54307945961482162e+00, 1.17519965056375441e-08), (2.35240843903853758e+00, 2.12927910021492575e-03)]> : tensor<6xcomplex<f64>>
  %ok_cosh_f64 = func.call @close_f64(%cosh_f64, %e_cosh_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %tan_f64 = chlo.tan %z_f64 : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %e_tan_f64 = stablehlo.constant dense<[(5.04500702698563952e-01, -3.12420692502588748e-01), (1.87346204629478392e-04, 9.99355987381473021e-01), (9.99999999633333241e-06, 1.99999999993333359e-05), (-2.18503986326151889e+00, 0.00000000000000000e+00), (1.55740429914141587e+00, 3.42550815098416585e-08), (-1.40986023399271243e+01, -1.99810245660079405e-01)]> : tensor<6xcomplex<f64>>
  %ok_tan_f64 = func.call @close_f64(%tan_f64, %e_tan_f64, %tol_f64) : (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xf64>) -> tensor<6xi1>
  %z_f32 = stablehlo.constant dense<[(5.00000000000000000e-01, -2.50000000000000000e-01), (-3.00000000000000000e+00, 4.00000000000000000e+00), (9.99999974737875164e-06, 1.99999994947575033e-05), (2.00000000000000000e+00, 0.00000000000000000e+00), (9.99998986721038818e-01, 9.99999993922529029e-09), (-1.50000000000000000e+00, -1.00000004749745131e-03)]> : tensor<6xcomplex<f32>>
  %tol_f32 = stablehlo.constant dense<2.5e-7> : tensor<6xf32>
  %asin_f32 = chlo.asin %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_asin_f32 = stablehlo.constant dense<[(5.01608848571777344e-01, -2.81396061182022095e-01), (-6.33983850479125977e-01, 2.30550909042358398e+00), (9.99999974737875164e-06, 1.99999994947575033e-05), (1.57079637050628662e+00, 1.31695795059204102e+00), (1.56937277317047119e+00, 7.02449824530049227e-06), (-1.56990194320678711e+00, -9.62424159049987793e-01)]> : tensor<6xcomplex<f32>>
  %ok_asin_f32 = func.call @close_f32(%asin_f32, %e_asin_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %acos_f32 = chlo.acos %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_acos_f32 = stablehlo.constant dense<[(1.06918752193450928e+00, 2.81396061182022095e-01), (2.20478010177612305e+00, -2.30550909042358398e+00), (1.57078635692596436e+00, -1.99999994947575033e-05), (0.00000000000000000e+00, -1.31695795059204102e+00), (1.42358965240418911e-03, -7.02449824530049227e-06), (3.14069819450378418e+00, 9.62424159049987793e-01)]> : tensor<6xcomplex<f32>>
  %ok_acos_f32 = func.call @close_f32(%acos_f32, %e_acos_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %acosh_f32 = chlo.acosh %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_acosh_f32 = stablehlo.constant dense<[(2.81396061182022095e-01, -1.06918752193450928e+00), (2.30550909042358398e+00, 2.20478010177612305e+00), (1.99999994947575033e-05, 1.57078635692596436e+00), (1.31695795059204102e+00, 0.00000000000000000e+00), (7.02449824530049227e-06, 1.42358965240418911e-03), (9.62424159049987793e-01, -3.14069819450378418e+00)]> : tensor<6xcomplex<f32>>
  %ok_acosh_f32 = func.call @close_f32(%acosh_f32, %e_acosh_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %asinh_f32 = chlo.asinh %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_asinh_f32 = stablehlo.constant dense<[(4.92675691843032837e-01, -2.24328458309173584e-01), (-2.29991412162780762e+00, 9.17616844177246094e-01), (9.99999974737875164e-06, 1.99999994947575033e-05), (1.44363546371459961e+00, 0.00000000000000000e+00), (8.81372869014739990e-01, 7.07107128405937146e-09), (-1.19476330280303955e+00, -5.54700207430869341e-04)]> : tensor<6xcomplex<f32>>
  %ok_asinh_f32 = func.call @close_f32(%asinh_f32, %e_asinh_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %atan_f32 = chlo.atan %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_atan_f32 = stablehlo.constant dense<[(4.84254479408264160e-01, -2.00586616992950439e-01), (-1.44830703735351562e+00, 1.58997192978858948e-01), (9.99999974737875164e-06, 1.99999994947575033e-05), (1.10714876651763916e+00, 0.00000000000000000e+00), (7.85397648811340332e-01, 5.00000485459395350e-09), (-9.82793867588043213e-01, -3.07692273054271936e-04)]> : tensor<6xcomplex<f32>>
  %ok_atan_f32 = func.call @close_f32(%atan_f32, %e_atan_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %atanh_f32 = chlo.atanh %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_atanh_f32 = stablehlo.constant dense<[(5.00370025634765625e-01, -3.14398139715194702e-01), (-1.17500908672809601e-01, 1.40992105007171631e+00), (9.99999974737875164e-06, 1.99999994947575033e-05), (5.49306154251098633e-01, 1.57079637050628662e+00), (7.24770832061767578e+00, 4.93431743234395981e-03), (-8.04718017578125000e-01, -1.56999635696411133e+00)]> : tensor<6xcomplex<f32>>
  %ok_atanh_f32 = func.call @close_f32(%atanh_f32, %e_atanh_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %sinh_f32 = chlo.sinh %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_sinh_f32 = stablehlo.constant dense<[(5.04895687103271484e-01, -2.78979122638702393e-01), (6.54812002182006836e+00, -7.61923170089721680e+00), (9.99999974737875164e-06, 1.99999994947575033e-05), (3.62686038017272949e+00, 0.00000000000000000e+00), (1.17519962787628174e+00, 1.54307944200127167e-08), (-2.12927842140197754e+00, -2.35240929760038853e-03)]> : tensor<6xcomplex<f32>>
  %ok_sinh_f32 = func.call @close_f32(%sinh_f32, %e_sinh_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %cosh_f32 = chlo.cosh %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_cosh_f32 = stablehlo.constant dense<[(1.09257078170776367e+00, -1.28921046853065491e-01), (-6.58066320419311523e+00, 7.58155250549316406e+00), (1.00000000000000000e+00, 1.99999988792498584e-10), (3.76219558715820312e+00, 0.00000000000000000e+00), (1.54307949542999268e+00, 1.17519958209300057e-08), (2.35240840911865234e+00, 2.12927930988371372e-03)]> : tensor<6xcomplex<f32>>
  %ok_cosh_f32 = func.call @close_f32(%cosh_f32, %e_cosh_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %tan_f32 = chlo.tan %z_f32 : tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %e_tan_f32 = stablehlo.constant dense<[(5.04500687122344971e-01, -3.12420696020126343e-01), (1.87346202437765896e-04, 9.99355971813201904e-01), (9.99999974737875164e-06, 1.99999994947575033e-05), (-2.18503975868225098e+00, 0.00000000000000000e+00), (1.55740427970886230e+00, 3.42550805498831323e-08), (-1.40986022949218750e+01, -1.99810251593589783e-01)]> : tensor<6xcomplex<f32>>
  %ok_tan_f32 = func.call @close_f32(%tan_f32, %e_tan_f32, %tol_f32) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>) -> tensor<6xi1>
  %cut = stablehlo.constant dense<[(3.0, -0.0), (-2.0, -0.0)]> : tensor<2xcomplex<f64>>
  %as = chlo.asin %cut : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  %ac = chlo.acos %cut : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  %ah = chlo.acosh %cut : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  %as_i = stablehlo.imag %as : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %ac_i = stablehlo.imag %ac : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %ah_i = stablehlo.imag %ah : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %as_i0 = stablehlo.slice %as_i [0:1] : (tensor<2xf64>) -> tensor<1xf64>
  %ac_i0 = stablehlo.slice %ac_i [0:1] : (tensor<2xf64>) -> tensor<1xf64>
  %ah_i1 = stablehlo.slice %ah_i [1:2] : (tensor<2xf64>) -> tensor<1xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<1xf64>
  %mpi = stablehlo.constant dense<-3.141592653589793> : tensor<1xf64>
  %c0 = stablehlo.compare LT, %as_i0, %zero : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
  %c1 = stablehlo.compare GT, %ac_i0, %zero : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
  %c2 = stablehlo.compare EQ, %ah_i1, %mpi : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
  %cuts = stablehlo.concatenate %c0, %c1, %c2, dim = 0 : (tensor<1xi1>, tensor<1xi1>, tensor<1xi1>) -> tensor<3xi1>
  return %ok_asin_f64, %ok_acos_f64, %ok_acosh_f64, %ok_asinh_f64, %ok_atan_f64, %ok_atanh_f64, %ok_sinh_f64, %ok_cosh_f64, %ok_tan_f64, %ok_asin_f32, %ok_acos_f32, %ok_acosh_f32, %ok_asinh_f32, %ok_atan_f32, %ok_atanh_f32, %ok_sinh_f32, %ok_cosh_f32, %ok_tan_f32, %cuts : tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<3xi1>
}
